import { useTranslations } from "next-intl";
import type { DocumentEventType } from "@/lib/db/schema";
import { useErrorReason } from "@/lib/i18n/error-reason";

/** A document's last event in the words of its history ("Upload failed"), with the failure's reason when it has one. */
export function LastEventText({ type, errorCode }: { type: DocumentEventType; errorCode: string | null }) {
  const trail = useTranslations("auditTrail");
  const reason = useErrorReason();
  return (
    <>
      {trail(type)}
      {errorCode ? <span className="block text-slate-600">{trail("reason", { reason: reason(errorCode) ?? trail("unknownReason") })}</span> : null}
    </>
  );
}
