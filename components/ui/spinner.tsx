import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";

export function Spinner({ className, label }: { className?: string; label?: string }) {
  const t = useTranslations("common");
  return (
    <span role="status" className="inline-flex items-center gap-2">
      <span
        aria-hidden="true"
        className={cn("size-4 animate-spin rounded-full border-2 border-current border-t-transparent", className)}
      />
      <span className="sr-only">{label ?? t("loading")}</span>
    </span>
  );
}
