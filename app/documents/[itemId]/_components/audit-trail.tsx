import { useLocale, useTranslations } from "next-intl";
import type { DocumentEventRecord } from "@/lib/documents/document-records";
import { formatBytes, formatDuration } from "@/lib/upload/format";
import { LocalTime } from "@/components/local-time";

type TrailTranslator = ReturnType<typeof useTranslations<"auditTrail">>;
type DocumentsTranslator = ReturnType<typeof useTranslations<"documents">>;

const MODES = { single: "modeSingle", blocks: "modeBlocks", fallback: "modeFallback" } as const;

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const count = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** One event in words: what happened, then the facts it carries (mode, bytes, MD5, duration, error code). */
function describe(event: DocumentEventRecord, t: TrailTranslator, documents: DocumentsTranslator, locale: string): { title: string; facts: string[] } {
  const { details } = event;
  const modeKey = MODES[text(details.mode) as keyof typeof MODES];
  const mode = modeKey ? t(modeKey) : null;
  const bytes = count(details.bytes);
  const duration = count(details.durationMs);
  const facts: string[] = [];
  if (bytes !== null) facts.push(documents("bytes", { size: formatBytes(bytes, locale), bytes }));
  if (text(details.md5)) facts.push(t("md5", { md5: text(details.md5)! }));
  if (duration !== null) {
    facts.push(t("took", { duration: duration < 1000 ? t("milliseconds", { ms: Math.round(duration) }) : formatDuration(duration / 1000, locale) }));
  }
  switch (event.type) {
    case "created":
      return { title: t("created"), facts };
    case "upload_started":
      return { title: mode ? t("upload_started_mode", { mode }) : t("upload_started"), facts };
    case "resumed":
      return { title: t("resumed"), facts };
    case "uploaded":
      return { title: mode ? t("uploaded_mode", { mode }) : t("uploaded"), facts };
    case "failed":
      return { title: t("failed"), facts: [...(text(details.errorCode) ? [t("error", { code: text(details.errorCode)! })] : []), ...facts] };
    case "abandoned":
      return { title: t("abandoned"), facts };
    case "replaced":
      return {
        title: t("replaced"),
        facts: [...(text(details.replacedByItemId) ? [t("newItem", { itemId: text(details.replacedByItemId)! })] : []), ...facts],
      };
    case "removed":
      return { title: t("removed"), facts };
    case "imported":
      return { title: t("imported"), facts };
  }
}

/** The document's audit trail, oldest first, as an ordered list with machine-readable times. */
export function AuditTrail({ events }: { events: DocumentEventRecord[] }) {
  const t = useTranslations("auditTrail");
  const documents = useTranslations("documents");
  const locale = useLocale();
  if (events.length === 0) return <p className="text-sm text-slate-600">{t("none")}</p>;
  return (
    <ol className="flex flex-col" aria-label={t("listLabel")} data-testid="audit-trail">
      {events.map((event) => {
        const { title, facts } = describe(event, t, documents, locale);
        return (
          <li key={event.eventId} className="relative border-l-2 border-slate-200 pb-4 pl-4 last:pb-0" data-event={event.type}>
            <span aria-hidden="true" className="absolute -left-[5px] top-1.5 size-2 rounded-full bg-brand-600" />
            <p className="text-sm font-medium text-slate-900">{title}</p>
            <p className="text-xs text-slate-600">
              <LocalTime iso={event.at} style="absolute" />
              {event.device ? ` · ${event.device}` : ""}
            </p>
            {facts.length > 0 ? <p className="break-all font-mono text-xs text-slate-700">{facts.join(" · ")}</p> : null}
            {event.requestId ? <p className="break-all text-xs text-slate-500">{t("request", { requestId: event.requestId })}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}
