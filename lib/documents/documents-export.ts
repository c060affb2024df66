import "server-only";
import type { DocumentRecords, ExportedDocument, ExportedEvent } from "@/lib/documents/document-records";

/** Rows read per query: documents, or events (≤ a few KiB each), so memory does not grow with the number of records. */
export const EXPORT_BATCH_SIZE = 500;

/**
 * The most events a CSV batch's documents are read with in one query; a batch whose trails hold more has each
 * document's trail read in keyset batches of EXPORT_BATCH_SIZE instead.
 */
export const EXPORT_BATCH_EVENTS_MAX = 2_000;

/** Text is handed to the response in pieces of about this many UTF-16 units: rows are joined up to it, never a whole batch. */
export const EXPORT_CHUNK_CHARS = 64 * 1024;

export type ExportFormat = "csv" | "json";

type ExportSource = Pick<DocumentRecords, "exportDocumentBatches" | "exportEventBatches" | "exportEventsOf" | "exportTrailBatches">;

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

function csvRow(row: readonly (string | number | null)[]): string {
  return `${row.map(csvCell).join(",")}\r\n`;
}

type DocumentFacts = (string | number | null)[];

function factsOf(doc: ExportedDocument): DocumentFacts {
  return [doc.itemId, doc.fileId, doc.subdocid, doc.name, doc.doctype, doc.status, doc.size, doc.md5, doc.createdAt, doc.removedAt];
}

function eventRow(facts: DocumentFacts, e: ExportedEvent): string {
  return csvRow([...facts, e.type, e.at, e.device, e.requestId, Object.keys(e.details).length ? JSON.stringify(e.details) : null]);
}

/**
 * Pieces of text joined into chunks of at least `size` units (the last may be shorter): the response gets few
 * large writes instead of one per row, and no chunk holds more than `size` plus one piece.
 */
async function* chunked(pieces: AsyncIterable<string>, size = EXPORT_CHUNK_CHARS): AsyncGenerator<string> {
  let parts: string[] = [];
  let length = 0;
  for await (const piece of pieces) {
    parts.push(piece);
    length += piece.length;
    if (length >= size) {
      yield parts.join("");
      parts = [];
      length = 0;
    }
  }
  if (length > 0) yield parts.join("");
}

/** The CSV's rows of one batch of documents: their trails in one read when small, else each trail in keyset batches. */
async function* csvBatchRows(source: ExportSource, userKey: string, batch: readonly ExportedDocument[], batchSize: number, batchEventsMax: number): AsyncGenerator<string> {
  const events = await source.exportEventsOf(userKey, batch.map((d) => d.itemId), batchEventsMax);
  const byItem = new Map<string, ExportedEvent[]>();
  for (const e of events ?? []) {
    const trail = byItem.get(e.itemId);
    if (trail) trail.push(e);
    else byItem.set(e.itemId, [e]);
  }
  for (const doc of batch) {
    const facts = factsOf(doc);
    let rows = 0;
    if (events) {
      for (const e of byItem.get(doc.itemId) ?? []) {
        rows += 1;
        yield eventRow(facts, e);
      }
    } else {
      for await (const trail of source.exportTrailBatches(userKey, doc.itemId, batchSize)) {
        for (const e of trail) {
          rows += 1;
          yield eventRow(facts, e);
        }
      }
    }
    if (rows === 0) yield csvRow([...facts, null, null, null, null, null]);
  }
}

async function* csvPieces(source: ExportSource, userKey: string, batchSize: number, batchEventsMax: number): AsyncGenerator<string> {
  yield `${BOM}${CSV_COLUMNS.join(",")}\r\n`;
  for await (const batch of source.exportDocumentBatches(userKey, batchSize)) yield* csvBatchRows(source, userKey, batch, batchSize, batchEventsMax);
}

/**
 * The export as CSV, as it is read: a byte-order mark and the header, then one row per event with its document's
 * facts (a document without events gets one row), documents newest first, each one's events oldest first.
 * docs/documents.md says what each column means. Memory holds one batch of documents, at most
 * `batchEventsMax` events (or one trail batch) and one chunk, whatever the number of records or events.
 */
export function documentsExportCsv(source: ExportSource, userKey: string, batchSize = EXPORT_BATCH_SIZE, batchEventsMax = EXPORT_BATCH_EVENTS_MAX): AsyncGenerator<string> {
  return chunked(csvPieces(source, userKey, batchSize, batchEventsMax));
}

/** `JSON.stringify(value, null, 2)` as an element of an array nested two levels deep. */
function element(value: unknown, first: boolean): string {
  return `${first ? "" : ","}\n    ${JSON.stringify(value, null, 2).replace(/\n/g, "\n    ")}`;
}

async function* jsonArray(batches: AsyncIterable<readonly unknown[]>, open: string): AsyncGenerator<string> {
  yield open;
  let first = true;
  for await (const batch of batches) {
    for (const value of batch) {
      yield element(value, first);
      first = false;
    }
  }
  yield first ? "]" : "\n  ]";
}

async function* jsonPieces(source: ExportSource, userKey: string, exportedAt: Date, batchSize: number): AsyncGenerator<string> {
  yield* jsonArray(source.exportDocumentBatches(userKey, batchSize), `{\n  "exportedAt": ${JSON.stringify(exportedAt.toISOString())},\n  "documents": [`);
  yield* jsonArray(source.exportEventBatches(userKey, batchSize), `,\n  "events": [`);
  yield "\n}";
}

/**
 * The export as JSON, as it is read: `{ exportedAt, documents, events }`, the same text `JSON.stringify(…, null, 2)`
 * gives for the whole, documents newest first and events by document then time. Each record is written as it
 * comes, joined into chunks (never a whole batch as one string).
 */
export function documentsExportJson(source: ExportSource, userKey: string, exportedAt: Date, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  return chunked(jsonPieces(source, userKey, exportedAt, batchSize));
}

/**
 * A byte stream of the text chunks, pulled one at a time: the next batch is read only when the response has taken
 * the last one (Next pipes a route's stream with backpressure), and a download the client abandons stops the reads.
 * The first chunk is read before this resolves, so a database that is down is still a 503 with a JSON body.
 * A failure later ends the download early (`onError`, then the connection is cut: the client sees it incomplete).
 * `onEnd` is called once when the reads are over: the last chunk taken, a failure (the first read's too), or the
 * download abandoned.
 */
export async function exportByteStream(chunks: AsyncGenerator<string>, onError: (error: unknown) => void, onEnd: () => void = () => undefined): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  let pending: IteratorResult<string> | undefined;
  try {
    pending = await chunks.next();
  } catch (error) {
    end();
    throw error;
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = pending ?? (await chunks.next());
          pending = undefined;
          if (next.done) {
            end();
            controller.close();
          } else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          end();
          onError(error);
          controller.error(error);
        }
      },
      async cancel() {
        end();
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
