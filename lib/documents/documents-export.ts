import "server-only";
import type { DocumentRecords, ExportedDocument, ExportedEvent } from "@/lib/documents/document-records";

/** Rows read per query: documents, or events (≤ a few KiB each), so memory does not grow with the number of records. */
export const EXPORT_BATCH_SIZE = 500;

/**
 * The most events a CSV batch's documents are read with in one query; a batch whose trails hold more has each
 * document's trail read in keyset batches of EXPORT_BATCH_SIZE instead.
 */
export const EXPORT_BATCH_EVENTS_MAX = 2_000;

/**
 * The batch sizes by kind of database. PGlite runs each query on the event loop (WASM): it reads 100 rows a query
 * (at most 400 events for a CSV batch's trails), so each query holds the event loop for a fifth of PostgreSQL's
 * batch, and other requests are answered between two of them (with the export query gate, lib/documents/export-slots.ts).
 */
export const EXPORT_BATCH_SIZES = {
  postgres: { batchSize: EXPORT_BATCH_SIZE, batchEventsMax: EXPORT_BATCH_EVENTS_MAX },
  pglite: { batchSize: 100, batchEventsMax: 400 },
} as const;

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

/** A document's ten cells and the comma after them: the start of each of its rows, made once per document. */
function csvFacts(doc: ExportedDocument): string {
  const facts = [doc.itemId, doc.fileId, doc.subdocid, doc.name, doc.doctype, doc.status, doc.size, doc.md5, doc.createdAt, doc.removedAt];
  return `${facts.map(csvCell).join(",")},`;
}

function csvEventCells(e: ExportedEvent): string {
  const details = Object.keys(e.details).length ? JSON.stringify(e.details) : null;
  return `${csvCell(e.type)},${csvCell(e.at)},${csvCell(e.device)},${csvCell(e.requestId)},${csvCell(details)}\r\n`;
}

/**
 * Text joined into chunks of at least `size` units: the response gets few large writes instead of one per row,
 * no chunk holds more than `size` plus one piece, and the generators below yield (an await) once per chunk.
 */
class ChunkBuffer {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly size = EXPORT_CHUNK_CHARS) {}

  /** Adds a piece; true once the chunk is full and should be taken. */
  add(piece: string): boolean {
    this.parts.push(piece);
    this.length += piece.length;
    return this.length >= this.size;
  }

  take(): string {
    const chunk = this.parts.join("");
    this.parts = [];
    this.length = 0;
    return chunk;
  }

  get empty(): boolean {
    return this.length === 0;
  }
}

/**
 * The export as CSV, as it is read: a byte-order mark and the header, then one row per event with its document's
 * facts (a document without events gets one row), documents newest first, each one's events oldest first.
 * docs/documents.md says what each column means. A batch of documents has its trails read in one query when they
 * hold at most `batchEventsMax` events, else each trail in keyset batches. Memory holds one batch of documents,
 * at most `batchEventsMax` events (or one trail batch) and one chunk, whatever the number of records or events.
 */
export async function* documentsExportCsv(source: ExportSource, userKey: string, batchSize = EXPORT_BATCH_SIZE, batchEventsMax = EXPORT_BATCH_EVENTS_MAX): AsyncGenerator<string> {
  const out = new ChunkBuffer();
  out.add(`${BOM}${CSV_COLUMNS.join(",")}\r\n`);
  for await (const batch of source.exportDocumentBatches(userKey, batchSize)) {
    const events = await source.exportEventsOf(userKey, batch.map((d) => d.itemId), batchEventsMax);
    const byItem = new Map<string, ExportedEvent[]>();
    for (const e of events ?? []) {
      const trail = byItem.get(e.itemId);
      if (trail) trail.push(e);
      else byItem.set(e.itemId, [e]);
    }
    for (const doc of batch) {
      const facts = csvFacts(doc);
      const trails: AsyncIterable<readonly ExportedEvent[]> | Iterable<readonly ExportedEvent[]> = events
        ? [byItem.get(doc.itemId) ?? []]
        : source.exportTrailBatches(userKey, doc.itemId, batchSize);
      let rows = 0;
      for await (const trail of trails) {
        for (const e of trail) {
          rows += 1;
          if (out.add(facts + csvEventCells(e))) yield out.take();
        }
      }
      if (rows === 0 && out.add(`${facts},,,,\r\n`)) yield out.take();
    }
  }
  if (!out.empty) yield out.take();
}

/** `JSON.stringify(value, null, 2)` as an element of an array nested two levels deep. */
function element(value: unknown, first: boolean): string {
  return `${first ? "" : ","}\n    ${JSON.stringify(value, null, 2).replace(/\n/g, "\n    ")}`;
}

/**
 * The export as JSON, as it is read: `{ exportedAt, documents, events }`, the same text `JSON.stringify(…, null, 2)`
 * gives for the whole, documents newest first and events by document then time. Each record is written as it
 * comes, joined into chunks (never a whole batch as one string).
 */
export async function* documentsExportJson(source: ExportSource, userKey: string, exportedAt: Date, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  const out = new ChunkBuffer();
  const arrays: [string, AsyncIterable<readonly unknown[]>][] = [
    [`{\n  "exportedAt": ${JSON.stringify(exportedAt.toISOString())},\n  "documents": [`, source.exportDocumentBatches(userKey, batchSize)],
    [`,\n  "events": [`, source.exportEventBatches(userKey, batchSize)],
  ];
  for (const [open, batches] of arrays) {
    out.add(open);
    let first = true;
    for await (const batch of batches) {
      for (const value of batch) {
        if (out.add(element(value, first))) yield out.take();
        first = false;
      }
    }
    out.add(first ? "]" : "\n  ]");
  }
  out.add("\n}");
  yield out.take();
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
