import type { DocumentStatus } from "@/lib/db/schema";
import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";

const TONES: Record<DocumentStatus, string> = {
  created: "border-slate-300 bg-slate-50 text-slate-700",
  uploading: "border-sky-200 bg-sky-50 text-sky-900",
  uploaded: "border-emerald-200 bg-emerald-50 text-emerald-900",
  failed: "border-red-200 bg-red-50 text-red-900",
  abandoned: "border-slate-300 bg-slate-50 text-slate-700",
  replaced: "border-amber-200 bg-amber-50 text-amber-900",
};

/** The document's status as a small labelled badge, in words from the catalog (`documentStatus`) (text, not colour alone, carries the meaning). */
export function StatusBadge({ status }: { status: DocumentStatus }) {
  const t = useTranslations("documentStatus");
  return (
    <span className={cn("inline-flex shrink-0 items-center self-start rounded-full sm:self-auto border px-2 py-0.5 text-xs font-medium", TONES[status])} data-status={status}>
      {t(status)}
    </span>
  );
}
