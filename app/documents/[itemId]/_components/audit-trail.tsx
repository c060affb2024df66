import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { useLocale, useTranslations } from "next-intl";
import type { DocumentEventRecord } from "@/lib/documents/document-records";
import { useErrorReason } from "@/lib/i18n/error-reason";
import { deviceName } from "@/lib/i18n/device-name";
import { parseDeviceLabel } from "@/lib/session/device-label";
import { formatBytes, formatDuration } from "@/lib/upload/format";
import { CodeValue } from "@/components/ui/code-value";
import { LocalTime } from "@/components/local-time";

type TrailTranslator = ReturnType<typeof useTranslations<"auditTrail">>;

const MODES = { single: "modeSingle", blocks: "modeBlocks", fallback: "modeFallback" } as const;

/**
 * The details that are for support rather than for reading: shown under "Technical details", labelled from the
 * `auditTrail` catalog. Any other key an event carries is shown there too, under its own name, so nothing is hidden.
 */
const TECHNICAL = {
  md5: "md5",
  fileId: "fileId",
  subdocid: "subdocument",
  container: "container",
  errorCode: "errorCode",
  replacedByItemId: "newItemId",
  replacedItemId: "earlierItemId",
} as const;
/** Keys the plain facts (or the title) already say in words; not repeated under "Technical details". */
const SAID_IN_WORDS = new Set(["mode", "bytes", "size", "durationMs", "name", "doctype"]);

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const count = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

function titleOf(event: DocumentEventRecord, t: TrailTranslator): string {
  const modeKey = MODES[text(event.details.mode) as keyof typeof MODES];
  const mode = modeKey ? t(modeKey) : null;
  if (event.type === "upload_started") return mode ? t("upload_started_mode", { mode }) : t("upload_started");
  if (event.type === "uploaded") return mode ? t("uploaded_mode", { mode }) : t("uploaded");
  return t(event.type);
}

/**
 * A document's audit trail, oldest first: for each event what happened, when (to the second, in the reader's zone
 * and language), from which device (named in the page's language), and its facts in words. Ids, hashes and error
 * codes are folded under "Technical details" (a native <details>: keyboard-operable, closed until asked for).
 */
export function AuditTrail({ events, documentHref = (itemId) => `/documents/${encodeURIComponent(itemId)}` }: {
  events: DocumentEventRecord[];
  /** Where a "replaced" event's new document opens: the user's own page, or the operator's view of it. */
  documentHref?: (itemId: string) => string;
}) {
  const t = useTranslations("auditTrail");
  const documents = useTranslations("documents");
  const sessions = useTranslations("sessions");
  const locale = useLocale();
  const reason = useErrorReason();
  if (events.length === 0) return <p className="text-sm text-slate-600">{t("none")}</p>;

  const factsOf = ({ type, details }: DocumentEventRecord): ReactNode[] => {
    const facts: ReactNode[] = [];
    if (text(details.name)) facts.push(t("name", { name: text(details.name)! }));
    if (text(details.doctype)) facts.push(t("doctype", { doctype: text(details.doctype)! }));
    const bytes = count(details.bytes) ?? count(details.size);
    if (bytes !== null) facts.push(t("size", { size: documents("bytes", { size: formatBytes(bytes, locale), bytes }) }));
    const duration = count(details.durationMs);
    if (duration !== null) {
      facts.push(t("took", { duration: duration < 1000 ? t("milliseconds", { ms: Math.round(duration) }) : formatDuration(duration / 1000, locale) }));
    }
    const code = text(details.errorCode);
    if (code) facts.push(t("reason", { reason: reason(code) ?? t("unknownReason") }));
    const newItem = text(details.replacedByItemId);
    if (type === "replaced" && newItem) {
      facts.push(
        <Link href={documentHref(newItem)} className="text-brand-700 underline underline-offset-2">
          {t("openNewDocument")}
        </Link>,
      );
    }
    return facts;
  };

  // [key (its data-key, stable for tests), label, value]
  const technicalOf = (event: DocumentEventRecord): [string, string, string][] => {
    const rows: [string, string, string][] = [];
    if (event.requestId) rows.push(["requestId", t("requestId"), event.requestId]);
    for (const [key, value] of Object.entries(event.details)) {
      if (SAID_IN_WORDS.has(key) || value === null || value === undefined || value === "") continue;
      const label = key in TECHNICAL ? t(TECHNICAL[key as keyof typeof TECHNICAL]) : key;
      rows.push([key, label, typeof value === "string" ? value : JSON.stringify(value)]);
    }
    return rows;
  };

  return (
    <ol className="flex flex-col" aria-label={t("listLabel")} data-testid="audit-trail">
      {events.map((event) => {
        const facts = factsOf(event);
        const technical = technicalOf(event);
        const device = event.device ? parseDeviceLabel(event.device) : null;
        return (
          <li key={event.eventId} className="relative border-l-2 border-slate-200 pb-4 pl-4 last:pb-0" data-event={event.type}>
            <span aria-hidden="true" className="absolute -left-[5px] top-1.5 size-2 rounded-full bg-brand-600" />
            <p className="text-sm font-medium text-slate-900">{titleOf(event, t)}</p>
            <p className="text-xs text-slate-600">
              <LocalTime iso={event.at} style="absolute" seconds />
              {/* On a phone the device has a line of its own rather than breaking inside its name. */}
              {event.device ? (
                <span className="block sm:inline" data-testid="event-device">
                  <span className="hidden sm:inline"> · </span>
                  {device ? deviceName(sessions, device) : event.device}
                </span>
              ) : null}
            </p>
            {facts.length > 0 ? (
              <ul className="mt-1 flex flex-col text-sm text-slate-700" data-testid="event-facts">
                {facts.map((fact, i) => (
                  <li key={i}>{fact}</li>
                ))}
              </ul>
            ) : null}
            {technical.length > 0 ? (
              <details className="group mt-1 text-xs text-slate-600" data-testid="technical-details">
                <summary className="w-fit cursor-pointer rounded-sm font-medium text-slate-700 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
                  {t("technicalDetails")}
                </summary>
                <dl className="mt-1 grid grid-cols-1 gap-x-3 sm:grid-cols-[auto_minmax(0,1fr)]">
                  {technical.map(([key, label, value]) => (
                    <div key={key} className="contents">
                      <dt className="text-slate-500">{label}</dt>
                      <dd className="min-w-0 text-slate-800" data-key={key}>
                        <CodeValue value={value} />
                      </dd>
                    </div>
                  ))}
                </dl>
              </details>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
