import "server-only";
import { randomUUID } from "node:crypto";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { and, asc, eq, getTableColumns, ilike, inArray, isNull, lt, sql } from "drizzle-orm";
import { configuredDatabaseKind, getDatabase, type Database, type DatabaseKind, type OpenDatabase } from "@/lib/db/client";
import { databaseOperations } from "@/lib/db/database-operations";
import { escapeLike } from "@/lib/db/like-pattern";
import { documentEvents, documents, type DocumentEventType, type DocumentStatus } from "@/lib/db/schema";
import { documentIdSchema, isStorableTime, type CreatedDocumentFacts, type DocumentEventInput, type DocumentListQuery, type ImportedDocument } from "@/lib/documents/document-record-input";
import { erasedSince, holdErasureLock } from "@/lib/erasure/erasure-lock";
import { AppError, eventLimitError, recordsErasedError } from "@/lib/errors";
import type { DatabaseOperation } from "@/lib/metrics/database";

/** Who caused a write: kept with each event. `device` is the short text the session list shows ("Chrome 131 on macOS 15"). */
export type RecordContext = { requestId?: string; device?: string };

/** A document as the app shows it. Times are ISO 8601 strings. */
export type DocumentRecord = {
  itemId: string;
  fileId: string;
  subdocid: number;
  container: string | null;
  name: string;
  doctype: string;
  size: number | null;
  md5: string | null;
  status: DocumentStatus;
  replacedByItemId: string | null;
  createdAt: string;
  updatedAt: string;
};

export type DocumentEventRecord = {
  eventId: string;
  type: DocumentEventType;
  at: string;
  recordedAt: string;
  requestId: string | null;
  device: string | null;
  details: Record<string, unknown>;
};

/** The facts of a document the service just created, as the create route has them (never its SAS or upload endpoint). */
export type CreatedDocument = CreatedDocumentFacts & { itemId: string };

export type DocumentPage = { documents: DocumentRecord[]; nextCursor: string | null };

/** A document in the export: removed ones too, with when. */
export type ExportedDocument = DocumentRecord & { removedAt: string | null };
/** An event in the export, with its document's itemId. */
export type ExportedEvent = DocumentEventRecord & { itemId: string };

type DocumentRow = typeof documents.$inferSelect;
type EventRow = typeof documentEvents.$inferSelect;

function toDocumentRecord(row: DocumentRow): DocumentRecord {
  return {
    itemId: row.itemId,
    fileId: row.fileId,
    subdocid: row.subdocid,
    container: row.container,
    name: row.name,
    doctype: row.doctype,
    size: row.size,
    md5: row.md5,
    status: row.status,
    replacedByItemId: row.replacedByItemId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toEventRecord(row: EventRow): DocumentEventRecord {
  return {
    eventId: row.eventId,
    type: row.type,
    at: row.at.toISOString(),
    recordedAt: row.recordedAt.toISOString(),
    requestId: row.requestId,
    device: row.device,
    details: row.details,
  };
}

function toExportedEvent(row: EventRow): ExportedEvent {
  return { itemId: row.itemId, ...toEventRecord(row) };
}

/** An opaque page cursor: the last row's creation time (the database's own text, to the microsecond) and itemId, the list's sort key. */
export function encodeCursor(createdAt: string, itemId: string): string {
  return Buffer.from(JSON.stringify([createdAt, itemId])).toString("base64url");
}

/** UTC ISO 8601 with up to microseconds: the form the list's query writes (CURSOR_TIME) and an older cursor's `toISOString()`. */
const CURSOR_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/**
 * Whether a cursor's time is one the database takes as it is: the pattern, the years 1000–9999 (isStorableTime), and
 * a real calendar date (Date.parse takes February 31 as March 3; PostgreSQL would refuse it with an error, a 500).
 */
function isCursorTime(value: string): boolean {
  return CURSOR_TIME_PATTERN.test(value) && isStorableTime(value) && new Date(value).toISOString().slice(0, 19) === value.slice(0, 19);
}

/**
 * A cursor back into its sort key, or a 400 naming `cursor` when it is not one this app made: not base64url JSON,
 * a time that is not UTC ISO 8601 in the years 1000–9999, or an item id that is not a GUID. The time is kept as
 * text, microseconds and all: a JS Date would round it to the millisecond, and paging past rows that differ only in
 * microseconds would skip or repeat them.
 */
function decodeCursor(cursor: string): { createdAt: string; itemId: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && isCursorTime(parsed[0]) && documentIdSchema.safeParse(parsed[1]).success) {
      return { createdAt: parsed[0], itemId: parsed[1] as string };
    }
  } catch {
    // Falls through to the 400.
  }
  throw new AppError("VALIDATION_FAILED", 400, "The page link is not valid. Start again from the first page.", { cursor: ["is not a valid cursor"] });
}

/** A row's creation time as the database's own UTC text, to the microsecond: what the list's cursor carries. */
const CURSOR_TIME = sql<string>`to_char(${documents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A name search's first look: this many documents in list order (see listDocuments). */
const SEARCH_WINDOW = 2_000;

/** The event's own facts, as stored in `details`: everything but its id, type and time. */
function detailsOf(event: DocumentEventInput): Record<string, unknown> {
  // A created event's facts (name, ids, size) are the document's columns; the trail need not repeat them.
  if (event.type === "created") return {};
  const details: Record<string, unknown> = { ...event };
  for (const key of ["id", "type", "at"]) delete details[key];
  return details;
}

/**
 * The most events one document's audit trail keeps from reports. A real upload records a handful: created,
 * upload_started, one `resumed` per resume, uploaded (a 2 GiB block upload paused and resumed 20 times records 23,
 * and 2 more per dropped connection: tests/unit/upload-trail-size.test.ts). The cap bounds what a script holding a session can make one document's trail (and its export) hold.
 */
export const DOCUMENT_EVENTS_MAX = 1_000;

type FoldedState = { status: DocumentStatus; size?: number; md5?: string | null; replacedByItemId?: string };

const FINAL: ReadonlySet<DocumentStatus> = new Set(["uploaded", "replaced"]);

/**
 * The document's state after its events, taken in the order they happened (not the order they arrived: the
 * browser may deliver late reports after newer ones). `uploaded` and `replaced` are final: a late "failed"
 * report does not undo a stored file, and a replaced document never gets one.
 */
export function foldDocumentState(events: readonly { type: DocumentEventType; details: Record<string, unknown> }[]): FoldedState {
  const state: FoldedState = { status: "created" };
  for (const { type, details } of events) {
    const final = FINAL.has(state.status);
    switch (type) {
      case "upload_started":
      case "resumed":
        if (!final) state.status = "uploading";
        if (typeof details.bytes === "number" && type === "upload_started") state.size = details.bytes;
        break;
      case "uploaded":
        if (state.status !== "replaced") {
          state.status = "uploaded";
          if (typeof details.bytes === "number") state.size = details.bytes;
          if (typeof details.md5 === "string" || details.md5 === null) state.md5 = details.md5;
        }
        break;
      case "failed":
      case "abandoned":
        if (!final) state.status = type;
        break;
      case "replaced":
        if (state.status !== "uploaded") {
          state.status = "replaced";
          if (typeof details.replacedByItemId === "string") state.replacedByItemId = details.replacedByItemId;
        }
        break;
      case "imported":
        state.status = "uploaded";
        break;
      case "created":
      case "removed":
        break;
      default: {
        // A new event type must decide here what it does to the status: without a case, typecheck fails.
        const unhandled: never = type;
        throw new Error(`no rule for the event type ${String(unhandled)}`);
      }
    }
  }
  return state;
}

/**
 * The document records of one database (lib/db), every function scoped by the user's key first: a user only ever
 * reads or writes their own records. Connection failures and timeouts become DatabaseUnavailableError (a 503);
 * each operation's latency and outcome go to the metrics, labelled by operation only.
 */
export function documentRecordsFor(open: () => Promise<Pick<OpenDatabase, "db" | "kind">>, configuredKind?: () => DatabaseKind) {
  const operations = databaseOperations(open, configuredKind);
  const run = <T>(operation: DatabaseOperation, work: (db: Database) => Promise<T>) => operations.run(operation, operation, work);
  /** One export batch query, through the export query gate (lib/db/database-operations.ts). */
  const runExport = <T>(work: (db: Database) => Promise<T>) => operations.runExport("export", "export", work);

  /** Inserts the document (unless on record) and its "created" event; resolves whether that event is new. */
  async function insertCreated(db: Database, userKey: string, itemId: string, facts: CreatedDocumentFacts, createdAt: Date, event: { eventId: string; ctx: RecordContext }): Promise<boolean> {
    await db
      .insert(documents)
      .values({
        userKey,
        itemId,
        fileId: facts.fileId,
        subdocid: facts.subdocid,
        container: facts.container ?? null,
        name: facts.name,
        doctype: facts.doctype,
        size: facts.size ?? null,
        status: "created",
        createdAt,
        updatedAt: createdAt,
      })
      .onConflictDoNothing();
    // At most one "created" event per document (a unique index): the create route's and the browser's re-sent
    // report of the same creation make one entry.
    const inserted = await db
      .insert(documentEvents)
      .values({ userKey, itemId, eventId: event.eventId, type: "created", at: createdAt, requestId: event.ctx.requestId ?? null, device: event.ctx.device ?? null, details: {} })
      .onConflictDoNothing()
      .returning({ id: documentEvents.id });
    return inserted.length > 0;
  }

  return {
    /**
     * Records that the service created a document (the create route, as soon as the service answered), as created at
     * `createdAt` (the create request's start). Idempotent. RECORDS_ERASED (410) when the user's records were erased
     * since then: the erasure wins over a creation that was under way.
     */
    recordCreated(userKey: string, doc: CreatedDocument, ctx: RecordContext, createdAt = new Date()): Promise<void> {
      return run("record_created", async (db) => {
        await db.transaction(async (txn) => {
          const tx: Database = txn;
          await holdErasureLock(tx, userKey, "write");
          if (await erasedSince(tx, userKey, createdAt)) throw recordsErasedError();
          await insertCreated(tx, userKey, doc.itemId, doc, createdAt, { eventId: randomUUID(), ctx });
        });
      });
    },

    /**
     * Records events the browser reported for one of the user's documents and applies them to its status.
     * Idempotent: an event id already on record is skipped. Resolves the number of events new to the record, or
     * null when the user has no such document and the report does not create it, or removed it from the list.
     * RECORDS_ERASED (410) for a report that would create a document made before the user's records were erased: a
     * late report never brings an erased record back.
     */
    recordEvents(userKey: string, itemId: string, events: readonly DocumentEventInput[], ctx: RecordContext): Promise<number | null> {
      return run("record_events", (db) =>
        db.transaction(async (txn) => {
          const tx: Database = txn;
          // First, before the document's row lock: an erasure holds its lock while it deletes that row.
          await holdErasureLock(tx, userKey, "write");
          const where = and(eq(documents.userKey, userKey), eq(documents.itemId, itemId));
          // Locks the document, so two reports of the same document apply their events one after the other.
          const lockDocument = async () => (await tx.select({ removedAt: documents.removedAt }).from(documents).where(where).for("update"))[0];
          let doc = await lockDocument();
          // Removed from the list: nothing more is recorded (a 404, as for a document never recorded).
          if (doc?.removedAt) return null;
          const created = events.find((e) => e.type === "created");
          if (!doc && created && (await erasedSince(tx, userKey, new Date(created.at)))) throw recordsErasedError();
          const createdIsNew =
            created?.type === "created" ? await insertCreated(tx, userKey, itemId, created, new Date(created.at), { eventId: created.id, ctx }) : false;
          doc ??= await lockDocument();
          if (!doc || doc.removedAt) return null;
          const rest = events.filter((e) => e.type !== "created");
          const inserted = rest.length
            ? await tx
                .insert(documentEvents)
                .values(
                  rest.map((e) => ({
                    userKey,
                    itemId,
                    eventId: e.id,
                    type: e.type,
                    at: new Date(e.at),
                    requestId: ctx.requestId ?? null,
                    device: ctx.device ?? null,
                    details: detailsOf(e),
                  })),
                )
                .onConflictDoNothing()
                .returning({ id: documentEvents.id })
            : [];
          // Nothing new beyond the creation itself: the status a creation gives is already the document's.
          if (inserted.length === 0) return createdIsNew ? 1 : 0;
          const trail = await tx
            .select({ type: documentEvents.type, details: documentEvents.details })
            .from(documentEvents)
            .where(and(eq(documentEvents.userKey, userKey), eq(documentEvents.itemId, itemId)))
            .orderBy(asc(documentEvents.at), asc(documentEvents.id));
          // Past the cap the whole report is refused and rolled back: the outbox drops a 4xx instead of retrying it.
          if (trail.length > DOCUMENT_EVENTS_MAX) throw eventLimitError(DOCUMENT_EVENTS_MAX);
          const state = foldDocumentState(trail);
          await tx
            .update(documents)
            .set({
              status: state.status,
              ...(state.size !== undefined ? { size: state.size } : {}),
              ...(state.md5 !== undefined ? { md5: state.md5 } : {}),
              ...(state.replacedByItemId !== undefined ? { replacedByItemId: state.replacedByItemId } : {}),
              updatedAt: new Date(),
            })
            .where(where);
          return inserted.length + (createdIsNew ? 1 : 0);
        }),
      );
    },

    /** One page of the user's documents in the list (removed ones excluded), newest first; `nextCursor` continues it. */
    listDocuments(userKey: string, query: Partial<DocumentListQuery> & { limit: number }): Promise<DocumentPage> {
      return run("list", async (db) => {
        const conditions = [eq(documents.userKey, userKey), isNull(documents.removedAt)];
        if (query.doctype) conditions.push(eq(documents.doctype, query.doctype));
        if (query.status) conditions.push(eq(documents.status, query.status));
        if (query.cursor) {
          const after = decodeCursor(query.cursor);
          conditions.push(sql`(${documents.createdAt}, ${documents.itemId}) < (${after.createdAt}::timestamptz, ${after.itemId})`);
        }
        // Matches documents_list_idx (DESC NULLS LAST), so the page is read from the index in order.
        const listOrder = [sql`${documents.createdAt} desc nulls last`, sql`${documents.itemId} desc nulls last`];
        const listed = { row: documents, cursorAt: CURSOR_TIME };
        let rows: { row: DocumentRow; cursorAt: string }[];
        if (query.q) {
          const pattern = `%${escapeLike(query.q)}%`;
          // As the operator's search (lib/operators/records/search-operator.ts, SEARCH_WINDOW): the next SEARCH_WINDOW
          // documents in list order first, where a frequent word finds its page at once; only when they hold no
          // full page, the name gram index (documents_name_grams_idx), whose matches are then few.
          const window = db
            .select({ ...getTableColumns(documents), cursorAt: CURSOR_TIME.as("cursor_at") })
            .from(documents)
            .where(and(...conditions))
            .orderBy(...listOrder)
            .limit(SEARCH_WINDOW)
            .as("w");
          const found = await db
            .select()
            .from(window)
            .where(ilike(window.name, pattern))
            .orderBy(sql`${window.createdAt} desc nulls last`, sql`${window.itemId} desc nulls last`)
            .limit(query.limit + 1);
          rows = found.map(({ cursorAt, ...row }) => ({ row, cursorAt }));
          if (rows.length <= query.limit) {
            const grams = sql`document_name_grams(${documents.name}) @> document_name_query_grams(${query.q})`;
            rows = await db
              .select(listed)
              .from(documents)
              .where(and(...conditions, grams, ilike(documents.name, pattern)))
              .orderBy(...listOrder)
              .limit(query.limit + 1);
          }
        } else {
          rows = await db
            .select(listed)
            .from(documents)
            .where(and(...conditions))
            .orderBy(...listOrder)
            .limit(query.limit + 1);
        }
        const page = rows.slice(0, query.limit);
        const last = page.at(-1);
        return { documents: page.map(({ row }) => toDocumentRecord(row)), nextCursor: rows.length > query.limit && last ? encodeCursor(last.cursorAt, last.row.itemId) : null };
      });
    },

    /** One of the user's documents with its audit trail (oldest first); null when it is not theirs, unknown or removed. */
    getDocument(userKey: string, itemId: string): Promise<{ document: DocumentRecord; events: DocumentEventRecord[] } | null> {
      return run("get", async (db) => {
        const [row] = await db
          .select()
          .from(documents)
          .where(and(eq(documents.userKey, userKey), eq(documents.itemId, itemId), isNull(documents.removedAt)));
        if (!row) return null;
        const events = await db
          .select()
          .from(documentEvents)
          .where(and(eq(documentEvents.userKey, userKey), eq(documentEvents.itemId, itemId)))
          .orderBy(asc(documentEvents.at), asc(documentEvents.id));
        return { document: toDocumentRecord(row), events: events.map(toEventRecord) };
      });
    },

    /**
     * "Remove from this list": hides the record from the user and adds a "removed" event; the record and its trail
     * stay (the audit trail) until the retention sweep. The document at the service is untouched. False when the
     * user has no such document in the list.
     */
    removeDocument(userKey: string, itemId: string, ctx: RecordContext): Promise<boolean> {
      return run("remove", (db) =>
        db.transaction(async (txn) => {
          const tx: Database = txn;
          const now = new Date();
          const removed = await tx
            .update(documents)
            .set({ removedAt: now, updatedAt: now })
            .where(and(eq(documents.userKey, userKey), eq(documents.itemId, itemId), isNull(documents.removedAt)))
            .returning({ itemId: documents.itemId });
          if (removed.length === 0) return false;
          await tx
            .insert(documentEvents)
            .values({ userKey, itemId, eventId: randomUUID(), type: "removed", at: now, requestId: ctx.requestId ?? null, device: ctx.device ?? null, details: {} })
            .onConflictDoNothing();
          return true;
        }),
      );
    },

    /**
     * Everything kept about the user's documents, removed ones included (with `removedAt`), newest first: for the
     * export download, in batches of `batchSize`. Each batch is its own keyset query (`(created_at, item_id) < last
     * row's`), so nothing is held between batches (PGlite runs one query at a time), the query timeout measures one
     * batch's database time, and memory holds one batch whatever the number of records. Between batches the event
     * loop runs other requests.
     */
    async *exportDocumentBatches(userKey: string, batchSize: number): AsyncGenerator<ExportedDocument[]> {
      let after: { at: string; itemId: string } | undefined;
      for (;;) {
        const rows = await runExport((db) =>
          db.transaction(async (txn) => {
            // documents_export_idx's order (removed rows included): each batch reads its rows from the index, never
            // re-sorting the user's documents. Without sorts to choose from: where the user's documents are the
            // oldest in the table, both databases misjudged a 500-row batch and read it through documents_created_idx,
            // then sorted every document of the user's still to come (52 ms against 0.7 ms on PGlite, 9,500 left).
            await txn.execute(sql`set local enable_sort = off`);
            return txn
              .select({ row: documents, cursorAt: sql<string>`${documents.createdAt}::text` })
              .from(documents)
              .where(and(eq(documents.userKey, userKey), after ? sql`(${documents.createdAt}, ${documents.itemId}) < (${after.at}::timestamptz, ${after.itemId})` : undefined))
              .orderBy(sql`${documents.createdAt} desc nulls last`, sql`${documents.itemId} desc nulls last`)
              .limit(batchSize);
          }),
        );
        if (rows.length > 0) yield rows.map(({ row }) => ({ ...toDocumentRecord(row), removedAt: row.removedAt?.toISOString() ?? null }));
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        // The cursor keeps the database's own text of the time (microseconds), which a JS Date would round.
        after = { at: last.cursorAt, itemId: last.row.itemId };
        await yieldToEventLoop();
      }
    },

    /** The audit trails of all the user's documents, by document then time (as exportDocumentBatches, in keyset batches). */
    async *exportEventBatches(userKey: string, batchSize: number): AsyncGenerator<ExportedEvent[]> {
      let after: { itemId: string; at: string; id: number } | undefined;
      for (;;) {
        const rows = await runExport((db) =>
          db
            .select({ row: documentEvents, cursorAt: sql<string>`${documentEvents.at}::text` })
            .from(documentEvents)
            .where(
              and(
                eq(documentEvents.userKey, userKey),
                after ? sql`(${documentEvents.itemId}, ${documentEvents.at}, ${documentEvents.id}) > (${after.itemId}, ${after.at}::timestamptz, ${after.id})` : undefined,
              ),
            )
            .orderBy(asc(documentEvents.itemId), asc(documentEvents.at), asc(documentEvents.id))
            .limit(batchSize),
        );
        if (rows.length > 0) yield rows.map(({ row }) => toExportedEvent(row));
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        after = { itemId: last.row.itemId, at: last.cursorAt, id: last.row.id };
        await yieldToEventLoop();
      }
    },

    /**
     * The audit trails of some of the user's documents (one export batch's), by document then time, if they hold at
     * most `limit` events; null when they hold more (read each trail with exportTrailBatches instead). One query of
     * at most `limit + 1` rows, so memory is bounded whatever the trails hold.
     */
    exportEventsOf(userKey: string, itemIds: readonly string[], limit: number): Promise<ExportedEvent[] | null> {
      if (itemIds.length === 0) return Promise.resolve([]);
      const inBatch = and(eq(documentEvents.userKey, userKey), inArray(documentEvents.itemId, [...itemIds]));
      return runExport(async (db) => {
        // Counted first (index only, no row leaves the database): trails past the limit are never read here at all.
        const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(db.select({ one: sql`1` }).from(documentEvents).where(inBatch).limit(limit + 1).as("c"));
        if ((counted?.n ?? 0) > limit) return null;
        const rows = await db
          .select()
          .from(documentEvents)
          .where(inBatch)
          .orderBy(asc(documentEvents.itemId), asc(documentEvents.at), asc(documentEvents.id))
          .limit(limit + 1);
        return rows.length > limit ? null : rows.map(toExportedEvent);
      });
    },

    /** One document's audit trail, oldest first, in keyset batches of `batchSize` (document_events_trail_idx's order). */
    async *exportTrailBatches(userKey: string, itemId: string, batchSize: number): AsyncGenerator<ExportedEvent[]> {
      let after: { at: string; id: number } | undefined;
      for (;;) {
        const rows = await runExport((db) =>
          db
            .select({ row: documentEvents, cursorAt: sql<string>`${documentEvents.at}::text` })
            .from(documentEvents)
            .where(
              and(
                eq(documentEvents.userKey, userKey),
                eq(documentEvents.itemId, itemId),
                after ? sql`(${documentEvents.at}, ${documentEvents.id}) > (${after.at}::timestamptz, ${after.id})` : undefined,
              ),
            )
            .orderBy(asc(documentEvents.at), asc(documentEvents.id))
            .limit(batchSize),
        );
        if (rows.length > 0) yield rows.map(({ row }) => toExportedEvent(row));
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        after = { at: last.cursorAt, id: last.row.id };
        await yieldToEventLoop();
      }
    },

    /**
     * The one-time import of the browser's old list (uploaded documents): each entry not yet on record becomes an
     * "uploaded" document with an "imported" event, unless it predates an erasure of the user's records. Idempotent;
     * resolves how many were new.
     */
    importDocuments(userKey: string, entries: readonly ImportedDocument[], ctx: RecordContext): Promise<number> {
      return run("import", (db) =>
        db.transaction(async (txn) => {
          const tx: Database = txn;
          await holdErasureLock(tx, userKey, "write");
          let imported = 0;
          for (const entry of entries) {
            const uploadedAt = new Date(entry.uploadedAt);
            // An entry of the old list from before the user's records were erased stays erased.
            if (await erasedSince(tx, userKey, uploadedAt)) continue;
            const added = await tx
              .insert(documents)
              .values({
                userKey,
                itemId: entry.itemId,
                fileId: entry.fileId,
                subdocid: entry.subdocid,
                name: entry.name,
                doctype: entry.doctype,
                size: entry.size,
                md5: entry.md5Hex,
                status: "uploaded",
                createdAt: uploadedAt,
                updatedAt: new Date(),
              })
              .onConflictDoNothing()
              .returning({ itemId: documents.itemId });
            if (added.length === 0) continue;
            imported += 1;
            await tx.insert(documentEvents).values({
              userKey,
              itemId: entry.itemId,
              eventId: randomUUID(),
              type: "imported",
              at: uploadedAt,
              requestId: ctx.requestId ?? null,
              device: ctx.device ?? null,
              details: entry.replacedItemId ? { replacedItemId: entry.replacedItemId } : {},
            });
          }
          return imported;
        }),
      );
    },

    /** Deletes records (with their trails) untouched since `before`, for DOCUMENT_RETENTION_DAYS; resolves how many. */
    deleteDocumentsUpdatedBefore(before: Date): Promise<number> {
      return run("retention_sweep", async (db) => {
        const deleted = await db.delete(documents).where(lt(documents.updatedAt, before)).returning({ itemId: documents.itemId });
        return deleted.length;
      });
    },
  };
}

export type DocumentRecords = ReturnType<typeof documentRecordsFor>;

/** The document records in this process's database (lib/db/client.ts). */
export const documentRecords: DocumentRecords = documentRecordsFor(getDatabase, configuredDatabaseKind);

export const { recordCreated, recordEvents, listDocuments, getDocument, removeDocument, importDocuments } = documentRecords;
