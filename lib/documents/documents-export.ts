import "server-only";
import type { DocumentRecords, ExportedDocument, ExportedEvent } from "@/lib/documents/document-records";

/** Rows read per query: ~0.5 MiB of JSON at most per batch, so memory does not grow with the number of records. */
export const EXPORT_BATCH_SIZE = 500;

export type ExportFormat = "csv" | "json";

type ExportSource = Pick<DocumentRecords, "exportDocumentBatches" | "exportEventBatches" | "exportEventsOf">;

const CSV_COLUMNS = [
  "item_id",
  "file_id",
  "subdocid",
  "name",
  "doctype",
  "status",
  "size",
  "md5",
  "created_at",
  "removed_at",
  "event_type",
  "event_at",
  "device",
  "request_id",
  "details",
] as const;

/** The UTF-8 byte-order mark (EF BB BF): without it, Excel opened by double-click reads the file in the ANSI code page. */
const BOM = "\uFEFF";

/**
 * One CSV cell. A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: names are typed by users)
 * gets a leading apostrophe; quotes are doubled and any cell with a separator, quote or line break is quoted.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRows(batch: readonly ExportedDocument[], events: readonly ExportedEvent[]): string {
  const byItem = new Map<string, ExportedEvent[]>();
  for (const e of events) {
    const trail = byItem.get(e.itemId);
    if (trail) trail.push(e);
    else byItem.set(e.itemId, [e]);
  }
  const rows: (string | number | null)[][] = [];
  for (const doc of batch) {
    const facts = [doc.itemId, doc.fileId, doc.subdocid, doc.name, doc.doctype, doc.status, doc.size, doc.md5, doc.createdAt, doc.removedAt];
    const trail = byItem.get(doc.itemId) ?? [];
    if (trail.length === 0) rows.push([...facts, null, null, null, null, null]);
    for (const e of trail) rows.push([...facts, e.type, e.at, e.device, e.requestId, Object.keys(e.details).length ? JSON.stringify(e.details) : null]);
  }
  return rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

/**
 * The export as CSV, batch by batch: a byte-order mark and the header, then one row per event with its document's
 * facts (a document without events gets one row), documents newest first. docs/documents.md says what each column means.
 */
export async function* documentsExportCsv(source: ExportSource, userKey: string, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  let head = `${BOM}${CSV_COLUMNS.join(",")}\r\n`;
  for await (const batch of source.exportDocumentBatches(userKey, batchSize)) {
    const events = await source.exportEventsOf(userKey, batch.map((d) => d.itemId));
    yield head + csvRows(batch, events);
    head = "";
  }
  if (head) yield head;
}

/** `JSON.stringify(value, null, 2)` as an element of an array nested two levels deep. */
function element(value: unknown, first: boolean): string {
  return `${first ? "" : ","}\n    ${JSON.stringify(value, null, 2).replace(/\n/g, "\n    ")}`;
}

async function* jsonArray(batches: AsyncIterable<readonly unknown[]>, open: string): AsyncGenerator<string> {
  let head = open;
  for await (const batch of batches) {
    yield head + batch.map((value, i) => element(value, head === open && i === 0)).join("");
    head = "";
  }
  yield head ? `${head}]` : "\n  ]";
}

/**
 * The export as JSON, batch by batch: `{ exportedAt, documents, events }`, the same text `JSON.stringify(…, null, 2)`
 * gives for the whole, documents newest first and events by document then time.
 */
export async function* documentsExportJson(source: ExportSource, userKey: string, exportedAt: Date, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  yield* jsonArray(source.exportDocumentBatches(userKey, batchSize), `{\n  "exportedAt": ${JSON.stringify(exportedAt.toISOString())},\n  "documents": [`);
  yield* jsonArray(source.exportEventBatches(userKey, batchSize), `,\n  "events": [`);
  yield "\n}";
}

/**
 * A byte stream of the text chunks, pulled one at a time: the next batch is read only when the response has taken
 * the last one (Next pipes a route's stream with backpressure), and a download the client abandons stops the reads.
 * The first chunk is read before this resolves, so a database that is down is still a 503 with a JSON body.
 * A failure later ends the download early (`onError`, then the connection is cut: the client sees it incomplete).
 */
export async function exportByteStream(chunks: AsyncGenerator<string>, onError: (error: unknown) => void): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let pending: IteratorResult<string> | undefined = await chunks.next();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = pending ?? (await chunks.next());
          pending = undefined;
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          onError(error);
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The export's file name: `documents-YYYY-MM-DD.csv|json` by the user's own date in `timeZone` (the zone their
 * browser reported, lib/i18n), so a New York user at 8 pm on the 26th gets the 26th, not UTC's 27th.
 */
export function exportFileName(format: ExportFormat, now: Date, timeZone: string): string {
  // en-CA formats a date as YYYY-MM-DD.
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  return `documents-${day}.${format}`;
}
