import type { DocumentEventRecord } from "@/lib/documents/document-records";
import { formatBytes, formatDuration } from "@/lib/upload/format";
import { LocalTime } from "@/components/local-time";

const MODES: Record<string, string> = { single: "in one piece", blocks: "in blocks", fallback: "in one piece (storage refused blocks)" };

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const count = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** One event in words: what happened, then the facts it carries (mode, bytes, MD5, duration, error code). */
function describe(event: DocumentEventRecord): { title: string; facts: string[] } {
  const { details } = event;
  const mode = text(details.mode);
  const bytes = count(details.bytes);
  const duration = count(details.durationMs);
  const facts: string[] = [];
  if (bytes !== null) facts.push(`${formatBytes(bytes)} (${bytes.toLocaleString("en")} bytes)`);
  if (text(details.md5)) facts.push(`MD5 ${text(details.md5)}`);
  if (duration !== null) facts.push(`took ${duration < 1000 ? `${Math.round(duration)} ms` : formatDuration(duration / 1000)}`);
  switch (event.type) {
    case "created":
      return { title: "Created at the service", facts };
    case "upload_started":
      return { title: `Upload started${mode && MODES[mode] ? `, ${MODES[mode]}` : ""}`, facts };
    case "resumed":
      return { title: "Upload resumed from the blocks already sent", facts };
    case "uploaded":
      return { title: `Uploaded${mode && MODES[mode] ? `, ${MODES[mode]}` : ""}`, facts };
    case "failed":
      return { title: "Upload failed", facts: [...(text(details.errorCode) ? [`error ${text(details.errorCode)}`] : []), ...facts] };
    case "abandoned":
      return { title: "Upload cancelled; the file was not stored", facts };
    case "replaced":
      return {
        title: "Its upload link was refused, so the document was created again",
        facts: [...(text(details.replacedByItemId) ? [`new item ${text(details.replacedByItemId)}`] : []), ...facts],
      };
    case "removed":
      return { title: "Removed from the list", facts };
    case "imported":
      return { title: "Imported from this browser's earlier list", facts };
  }
}

/** The document's audit trail, oldest first, as an ordered list with machine-readable times. */
export function AuditTrail({ events }: { events: DocumentEventRecord[] }) {
  if (events.length === 0) return <p className="text-sm text-slate-600">No events recorded yet.</p>;
  return (
    <ol className="flex flex-col" aria-label="Events, oldest first" data-testid="audit-trail">
      {events.map((event) => {
        const { title, facts } = describe(event);
        return (
          <li key={event.eventId} className="relative border-l-2 border-slate-200 pb-4 pl-4 last:pb-0" data-event={event.type}>
            <span aria-hidden="true" className="absolute -left-[5px] top-1.5 size-2 rounded-full bg-brand-600" />
            <p className="text-sm font-medium text-slate-900">{title}</p>
            <p className="text-xs text-slate-600">
              <LocalTime iso={event.at} style="absolute" />
              {event.device ? ` · ${event.device}` : ""}
            </p>
            {facts.length > 0 ? <p className="break-all font-mono text-xs text-slate-700">{facts.join(" · ")}</p> : null}
            {event.requestId ? <p className="break-all text-xs text-slate-500">Request {event.requestId}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}
