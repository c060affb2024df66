import "server-only";
import { dayIn } from "@/lib/calendar-days";
import type { DocumentRecords, ExportedDocument, ExportedEvent } from "@/lib/documents/document-records";
import { csvCell, csvFile, jsonFile, type ExportFormat } from "@/lib/exports/export-text";

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

/** A document's ten cells and the comma after them: the start of each of its rows, made once per document. */
function csvFacts(doc: ExportedDocument): string {
  const facts = [doc.itemId, doc.fileId, doc.subdocid, doc.name, doc.doctype, doc.status, doc.size, doc.md5, doc.createdAt, doc.removedAt];
  return `${facts.map(csvCell).join(",")},`;
}

function csvEventCells(e: ExportedEvent): string {
  const details = Object.keys(e.details).length ? JSON.stringify(e.details) : null;
  return `${csvCell(e.type)},${csvCell(e.at)},${csvCell(e.device)},${csvCell(e.requestId)},${csvCell(details)}\r\n`;
}

/** A batch's lines, made one at a time as the writer takes them (never all of a batch's at once). */
function* batchLines(batch: readonly ExportedDocument[], trails: ReadonlyMap<string, readonly ExportedEvent[]>): Generator<string> {
  for (const doc of batch) {
    const facts = csvFacts(doc);
    const trail = trails.get(doc.itemId);
    if (!trail) yield `${facts},,,,\r\n`;
    else for (const e of trail) yield facts + csvEventCells(e);
  }
}

/** The CSV lines of each batch of documents: a row per event with its document's facts, one for a document without events. */
async function* documentCsvLines(source: ExportSource, userKey: string, batchSize: number, batchEventsMax: number): AsyncGenerator<Iterable<string>> {
  for await (const batch of source.exportDocumentBatches(userKey, batchSize)) {
    const events = await source.exportEventsOf(userKey, batch.map((d) => d.itemId), batchEventsMax);
    if (events) {
      const byItem = new Map<string, ExportedEvent[]>();
      for (const e of events) {
        const trail = byItem.get(e.itemId);
        if (trail) trail.push(e);
        else byItem.set(e.itemId, [e]);
      }
      yield batchLines(batch, byItem);
      continue;
    }
    for (const doc of batch) {
      const facts = csvFacts(doc);
      let rows = 0;
      for await (const trail of source.exportTrailBatches(userKey, doc.itemId, batchSize)) {
        rows += trail.length;
        yield trail.map((e) => facts + csvEventCells(e));
      }
      if (rows === 0) yield [`${facts},,,,\r\n`];
    }
  }
}

/**
 * The export as CSV (lib/exports/export-text.ts), as it is read: a byte-order mark and the header, then one row per
 * event with its document's facts (a document without events gets one row), documents newest first, each one's
 * events oldest first. docs/documents.md says what each column means. A batch of documents has its trails read in
 * one query when they hold at most `batchEventsMax` events, else each trail in keyset batches. Memory holds one
 * batch of documents, at most `batchEventsMax` events (or one trail batch) and one chunk, whatever the number of
 * records or events.
 */
export function documentsExportCsv(source: ExportSource, userKey: string, batchSize = EXPORT_BATCH_SIZE, batchEventsMax = EXPORT_BATCH_EVENTS_MAX): AsyncGenerator<string> {
  return csvFile(CSV_COLUMNS, documentCsvLines(source, userKey, batchSize, batchEventsMax));
}

/**
 * The export as JSON (lib/exports/export-text.ts), as it is read: `{ exportedAt, documents, events }`, the same text
 * `JSON.stringify(…, null, 2)` gives for the whole, documents newest first and events by document then time.
 */
export function documentsExportJson(source: ExportSource, userKey: string, exportedAt: Date, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<string> {
  return jsonFile({ exportedAt: exportedAt.toISOString() }, { documents: source.exportDocumentBatches(userKey, batchSize), events: source.exportEventBatches(userKey, batchSize) });
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
  return `documents-${dayIn(now, timeZone)}.${format}`;
}
