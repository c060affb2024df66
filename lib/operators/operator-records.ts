import "server-only";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { sql, type SQL } from "drizzle-orm";
import { configuredDatabaseKind, getDatabase, queryRows, type Database, type DatabaseKind, type OpenDatabase } from "@/lib/db/client";
import { DatabaseQueryError, DatabaseUnavailableError, describeDatabaseFailure, isDatabaseUnavailable, sqlstateOf } from "@/lib/db/database-errors";
import { operatorAccessLog, type DocumentEventType, type DocumentStatus, type OperatorAccessAction } from "@/lib/db/schema";
import { documentIdSchema } from "@/lib/documents/document-record-input";
import { AppError } from "@/lib/errors";
import { recordDatabaseOperation } from "@/lib/metrics/database";
import type {
  Operator,
  OperatorAccessEntry,
  OperatorAccessInput,
  OperatorDocumentPage,
  OperatorDocumentSummary,
  OperatorOverview,
  OperatorPeriod,
  OperatorSearchResult,
  OperatorUserPage,
  OperatorUserRecord,
  StuckDocumentsQuery,
  StuckPage,
} from "@/lib/operators/types";

export const DEFAULT_NEVER_UPLOADED_AFTER_MS = 60 * 60_000;
export const DEFAULT_SILENT_UPLOAD_AFTER_MS = 30 * 60_000;

/**
 * A name search first filters this many of the newest documents: a query that matches often (a common word) finds
 * its page there at once. Only a rarer one goes to documents_name_grams_idx, whose matches are then few. Either
 * way a search reads a bounded number of rows, where the index alone would fetch and sort every match of a
 * common query (measured: 30–55 ms at 100,000 documents for a word in one name of six) and the newest-first
 * scan alone would read every document for a rare one.
 */
export const SEARCH_WINDOW = 2_000;

/** An ISO 8601 string in UTC from the database itself: the same text from PGlite and node-postgres, no Date parsing. */
const iso = (column: SQL | SQL.Aliased | unknown) => sql<string>`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The condition a name search puts on `documents` (aliased `d`): the gram index narrows, ILIKE decides. */
export function nameMatches(query: string): SQL {
  return sql`document_name_grams(d.name) @> document_name_query_grams(${query}) and d.name ilike ${`%${escapeLike(query)}%`}`;
}

type UserRow = { user_key: string; email: string | null; display_name: string | null; first_seen_at: string; last_seen_at: string };

function toUser(row: UserRow): OperatorUserRecord {
  return { userKey: row.user_key, email: row.email, displayName: row.display_name, firstSeenAt: row.first_seen_at, lastSeenAt: row.last_seen_at };
}

const USER_COLUMNS = sql`u.user_key, u.email, u.display_name, ${iso(sql`u.first_seen_at`)} as first_seen_at, ${iso(sql`u.last_seen_at`)} as last_seen_at`;

type DocumentSummaryRow = {
  user_key: string;
  item_id: string;
  email: string | null;
  name: string;
  doctype: string;
  status: DocumentStatus;
  created_at: string;
  updated_at: string;
  removed_at: string | null;
};

const DOCUMENT_SUMMARY_COLUMNS = sql`d.user_key, d.item_id, u.email, d.name, d.doctype, d.status, ${iso(sql`d.created_at`)} as created_at,
  ${iso(sql`d.updated_at`)} as updated_at, case when d.removed_at is null then null else ${iso(sql`d.removed_at`)} end as removed_at`;

function toDocumentSummary(row: DocumentSummaryRow): OperatorDocumentSummary {
  return {
    userKey: row.user_key,
    itemId: row.item_id,
    email: row.email,
    name: row.name,
    doctype: row.doctype,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    removedAt: row.removed_at,
  };
}

/** The calendar days from `from` to `to` (exclusive) in `timeZone`, as YYYY-MM-DD. */
export function daysOfPeriod(from: Date, to: Date, timeZone: string): string[] {
  // en-CA formats a date as YYYY-MM-DD.
  const dayOf = (date: Date) => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
  if (to.getTime() <= from.getTime()) return [];
  const first = dayOf(from);
  const last = dayOf(new Date(to.getTime() - 1));
  const days: string[] = [];
  // Calendar arithmetic on the dates themselves (UTC noon), so no time-zone transition skips or doubles a day.
  for (let day = new Date(`${first}T12:00:00Z`); ; day = new Date(day.getTime() + 86_400_000)) {
    const text = day.toISOString().slice(0, 10);
    days.push(text);
    if (text >= last) return days;
  }
}

/** An opaque cursor of the operator's list of one user's documents: the last row's creation time (database text) and id. */
function encodeUserCursor(createdAt: string, itemId: string): string {
  return Buffer.from(JSON.stringify([createdAt, itemId])).toString("base64url");
}

function decodeUserCursor(cursor: string): { createdAt: string; itemId: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && !Number.isNaN(Date.parse(parsed[0])) && typeof parsed[1] === "string" && parsed[1].length <= 200) {
      return { createdAt: parsed[0], itemId: parsed[1] };
    }
  } catch {
    // Falls through to the 400.
  }
  throw new AppError("VALIDATION_FAILED", 400, "The page link is not valid. Start again from the first page.", { cursor: ["is not a valid cursor"] });
}

/**
 * The operator's reads across users, and the access log, on one database (lib/db). Only operator code calls these
 * (lib/operators/operator-access.ts decides who is one). Failures become DatabaseUnavailableError (a 503) or a
 * DatabaseQueryError naming the operation, never the query's values (names, emails).
 */
export function operatorRecordsFor(open: () => Promise<Pick<OpenDatabase, "db" | "kind">>, configuredKind?: () => DatabaseKind) {
  async function run<T>(operation: string, work: (db: Database) => Promise<T>): Promise<T> {
    const started = performance.now();
    let kind: DatabaseKind | undefined;
    try {
      const opened = await open().catch((error: unknown) => {
        throw new DatabaseUnavailableError(`database could not be opened: ${describeDatabaseFailure(error)}`);
      });
      kind = opened.kind;
      const result = await work(opened.db);
      recordDatabaseOperation(kind, "operator", "ok", (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      const label = kind ?? configuredKind?.();
      if (label) recordDatabaseOperation(label, "operator", "error", (performance.now() - started) / 1000);
      if (error instanceof DatabaseUnavailableError || error instanceof AppError) throw error;
      if (isDatabaseUnavailable(error)) throw new DatabaseUnavailableError(`database operator ${operation}: ${describeDatabaseFailure(error)}`);
      throw new DatabaseQueryError(`operator ${operation}`, sqlstateOf(error));
    }
  }

  async function findUser(db: Database, userKey: string): Promise<OperatorUserRecord | null> {
    const [row] = await queryRows<UserRow>(db, sql`select ${USER_COLUMNS} from users u where u.user_key = ${userKey}`);
    return row ? toUser(row) : null;
  }

  return {
    /**
     * The period's documents (created in [from, to)) by their status now, with the time from creation to upload,
     * the failures by error code, the active users and one entry per day in `timeZone`.
     */
    getOperatorOverview(period: OperatorPeriod): Promise<OperatorOverview> {
      const { from, to, timeZone } = period;
      const inPeriod = sql`d.created_at >= ${from.toISOString()}::timestamptz and d.created_at < ${to.toISOString()}::timestamptz`;
      return run("overview", async (db) => {
        // The period's documents by day and status in one scan; the period's totals are the days' sums.
        const perDay = await queryRows<{ day: string } & Record<"created" | "uploaded" | "failed" | "cancelled" | "replaced" | "pending", number>>(
          db,
          sql`select to_char(d.created_at at time zone ${timeZone}, 'YYYY-MM-DD') as day, count(*)::int as created,
                count(*) filter (where d.status = 'uploaded')::int as uploaded,
                count(*) filter (where d.status = 'failed')::int as failed,
                count(*) filter (where d.status = 'abandoned')::int as cancelled,
                count(*) filter (where d.status = 'replaced')::int as replaced,
                count(*) filter (where d.status in ('created', 'uploading'))::int as pending
              from documents d where ${inPeriod} group by 1`,
        );
        const c = { created: 0, uploaded: 0, failed: 0, cancelled: 0, replaced: 0, pending: 0 };
        for (const day of perDay) for (const key of Object.keys(c) as (keyof typeof c)[]) c[key] += day[key];
        // From the document's creation to its first "uploaded" event; imported documents have none and are left out.
        // A browser clock behind the server's could make it negative: counted as 0.
        const [times] = await queryRows<{ median: number | null; p95: number | null }>(
          db,
          sql`select percentile_cont(0.5) within group (order by t.ms) as median, percentile_cont(0.95) within group (order by t.ms) as p95
              from (select greatest(0, extract(epoch from (u.at - d.created_at)) * 1000)::float8 as ms
                    from documents d
                    cross join lateral (select min(e.at) as at from document_events e
                                        where e.user_key = d.user_key and e.item_id = d.item_id and e.type = 'uploaded') u
                    where ${inPeriod} and d.status = 'uploaded' and u.at is not null) t`,
        );
        const failures = await queryRows<{ error_code: string | null; count: number }>(
          db,
          sql`select f.code as error_code, count(*)::int as count
              from documents d
              left join lateral (select e.details->>'errorCode' as code from document_events e
                                 where e.user_key = d.user_key and e.item_id = d.item_id and e.type = 'failed'
                                 order by e.at desc, e.id desc limit 1) f on true
              where ${inPeriod} and d.status = 'failed'
              group by f.code order by count(*) desc, f.code nulls last`,
        );
        const [active] = await queryRows<{ users: number }>(
          db,
          sql`select count(distinct e.user_key)::int as users from document_events e
              where e.at >= ${from.toISOString()}::timestamptz and e.at < ${to.toISOString()}::timestamptz`,
        );
        const byDay = new Map(perDay.map((row) => [row.day, row]));
        return {
          period: { from: from.toISOString(), to: to.toISOString(), timeZone },
          ...c,
          completionRate: c.created > 0 ? c.uploaded / c.created : null,
          creationToUploadMs: { median: times?.median ?? null, p95: times?.p95 ?? null },
          failuresByCode: failures.map((row) => ({ errorCode: row.error_code, count: row.count })),
          activeUsers: active?.users ?? 0,
          days: daysOfPeriod(from, to, timeZone).map((day) => {
            const row = byDay.get(day);
            return { day, created: row?.created ?? 0, uploaded: row?.uploaded ?? 0, failed: row?.failed ?? 0 };
          }),
        };
      });
    },

    /**
     * Documents that need a look, oldest last event first: still "created" `neverUploadedAfterMs` after creation
     * (no upload started), or "uploading" with no event for `silentUploadAfterMs` (the reporter's times). Removed
     * documents (the user gave up on them) and documents created after `now` are left out. A page at a time, after
     * `after`, with the count of all of them and of those before this page.
     */
    listStuckDocuments(query: StuckDocumentsQuery): Promise<StuckPage> {
      const now = query.now;
      const neverBefore = new Date(now.getTime() - (query.neverUploadedAfterMs ?? DEFAULT_NEVER_UPLOADED_AFTER_MS));
      const silentBefore = new Date(now.getTime() - (query.silentUploadAfterMs ?? DEFAULT_SILENT_UPLOAD_AFTER_MS));
      const limit = Math.min(Math.max(1, query.limit ?? 100), 500);
      // Every stuck document with its last event, read once: the counts are window aggregates over all of them, the
      // page is what follows the cursor. The cursor compares exact microseconds (extract gives numeric): no rounding
      // can repeat or skip a row.
      const cursor = query.after ? sql`(${String(query.after.atMicros)}::numeric, ${String(query.after.eventId)}::bigint)` : null;
      const stuck = sql`select d.user_key, d.item_id, d.name, d.status, d.created_at, e.id as event_id, e.type as event_type, e.at as event_at,
                extract(epoch from e.at) * 1000000 as micros, e.device, e.details->>'errorCode' as error_code
              from documents d
              cross join lateral (select le.id, le.type, le.at, le.device, le.details from document_events le
                                  where le.user_key = d.user_key and le.item_id = d.item_id
                                  order by le.at desc, le.id desc limit 1) e
              where d.removed_at is null and d.status in ('created', 'uploading') and d.created_at <= ${now.toISOString()}::timestamptz
                and ((d.status = 'created' and d.created_at < ${neverBefore.toISOString()}::timestamptz)
                  or (d.status = 'uploading' and e.at < ${silentBefore.toISOString()}::timestamptz))`;
      return run("stuck", async (db) => {
        const found = await queryRows<{
          user_key: string;
          item_id: string;
          name: string;
          status: DocumentStatus;
          created_at: string;
          email: string | null;
          display_name: string | null;
          event_id: number | string;
          event_type: DocumentEventType;
          event_at: string;
          event_micros: number;
          device: string | null;
          error_code: string | null;
          total: number;
          skipped: number;
        }>(
          db,
          sql`select s.user_key, s.item_id, s.name, s.status, ${iso(sql`s.created_at`)} as created_at, u.email, u.display_name,
                s.event_id, s.event_type, ${iso(sql`s.event_at`)} as event_at, s.micros::float8 as event_micros, s.device, s.error_code,
                s.total, s.skipped
              from (select t.*, count(*) over ()::int as total,
                           ${cursor ? sql`(count(*) filter (where (t.micros, t.event_id) <= ${cursor}) over ())::int` : sql`0`} as skipped
                    from (${stuck}) t) s
              left join users u on u.user_key = s.user_key
              ${cursor ? sql`where (s.micros, s.event_id) > ${cursor}` : sql``}
              order by s.event_at asc, s.event_id asc
              limit ${limit + 1}`,
        );
        // Past the last page no row carries the counts.
        const counts = found[0] ?? (query.after ? (await queryRows<{ total: number; skipped: number }>(db, sql`select count(*)::int as total, count(*)::int as skipped from (${stuck}) t`))[0] : undefined);
        const page = found.slice(0, limit);
        const last = page.at(-1);
        return {
          documents: page.map((row) => ({
            kind: row.status === "created" ? "never_uploaded" : "upload_silent",
            userKey: row.user_key,
            itemId: row.item_id,
            email: row.email,
            displayName: row.display_name,
            name: row.name,
            status: row.status,
            createdAt: row.created_at,
            lastEvent: { type: row.event_type, at: row.event_at, errorCode: row.error_code, device: row.device },
            ageMs: Math.max(0, Math.round(now.getTime() - row.event_micros / 1000)),
          })),
          total: counts?.total ?? 0,
          skipped: counts?.skipped ?? 0,
          next: found.length > limit && last ? { atMicros: Number(last.event_micros), eventId: Number(last.event_id) } : null,
        };
      });
    },

    /**
     * Users whose email or display name holds the query (case-insensitive), and documents whose name holds it (any
     * script, any length) or whose service item id it is; removed documents too, flagged. Newest first.
     */
    searchOperator(rawQuery: string, options: { limit?: number } = {}): Promise<OperatorSearchResult> {
      // Control characters (NUL would be refused by PostgreSQL) never belong to a name or an email; 200 characters
      // are more than any name the app accepts.
      const query = rawQuery.replace(/\p{Cc}/gu, "").trim().slice(0, 200);
      const limit = Math.min(Math.max(1, options.limit ?? 20), 100);
      return run("search", async (db) => {
        if (!query) return { query, users: [], documents: [] };
        const pattern = `%${escapeLike(query)}%`;
        const users = await queryRows<UserRow & { document_count: number }>(
          db,
          sql`select ${USER_COLUMNS}, (select count(*) from documents d where d.user_key = u.user_key)::int as document_count
              from users u where u.email ilike ${pattern} or u.display_name ilike ${pattern}
              order by u.last_seen_at desc, u.user_key limit ${limit}`,
        );
        let documents: DocumentSummaryRow[];
        if (documentIdSchema.safeParse(query).success) {
          // Item ids are stored as the service gave them (a GUID, in one case or the other); braces and the case as
          // pasted are not part of it. Equality on the three spellings keeps to documents_item_id_idx.
          const bare = query.replace(/^\{|\}$/g, "");
          const spellings = [...new Set([bare, bare.toLowerCase(), bare.toUpperCase()])];
          documents = await queryRows<DocumentSummaryRow>(
            db,
            sql`select ${DOCUMENT_SUMMARY_COLUMNS} from documents d left join users u on u.user_key = d.user_key
                where d.item_id in (${sql.join(spellings.map((s) => sql`${s}`), sql`, `)})
                order by d.created_at desc limit ${limit}`,
          );
        } else {
          // A subquery, not a CTE: its rows stream through the filter from documents_created_idx, none kept.
          const recent = await queryRows<DocumentSummaryRow>(
            db,
            sql`select ${DOCUMENT_SUMMARY_COLUMNS}
                from (select d0.user_key, d0.item_id, d0.name, d0.doctype, d0.status, d0.created_at, d0.updated_at, d0.removed_at
                      from documents d0 order by d0.created_at desc, d0.user_key desc, d0.item_id desc limit ${SEARCH_WINDOW}) d
                left join users u on u.user_key = d.user_key
                where d.name ilike ${pattern}
                order by d.created_at desc, d.user_key desc, d.item_id desc limit ${limit}`,
          );
          // A full page from the window is the answer; otherwise the index finds every match (when the window held
          // every document there is, it finds the same ones, at the cost of one more small query).
          if (recent.length === limit) documents = recent;
          else {
            documents = await queryRows<DocumentSummaryRow>(
              db,
              sql`select ${DOCUMENT_SUMMARY_COLUMNS} from documents d left join users u on u.user_key = d.user_key
                  where ${nameMatches(query)}
                  order by d.created_at desc, d.user_key desc, d.item_id desc limit ${limit}`,
            );
          }
        }
        return {
          query,
          users: users.map((row) => ({ ...toUser(row), documentCount: row.document_count })),
          documents: documents.map(toDocumentSummary),
        };
      });
    },

    /** The user as kept, and their documents (removed ones too, flagged), newest first; null when the app knows neither. */
    getOperatorUser(userKey: string, options: { cursor?: string; limit?: number } = {}): Promise<OperatorUserPage | null> {
      const limit = Math.min(Math.max(1, options.limit ?? 50), 200);
      const after = options.cursor ? decodeUserCursor(options.cursor) : undefined;
      return run("user", async (db) => {
        const user = await findUser(db, userKey);
        const found = await queryRows<DocumentSummaryRow & { cursor_at: string }>(
          db,
          sql`select ${DOCUMENT_SUMMARY_COLUMNS}, d.created_at::text as cursor_at
              from documents d left join users u on u.user_key = d.user_key
              where d.user_key = ${userKey}
                ${after ? sql`and (d.created_at, d.item_id) < (${after.createdAt}::timestamptz, ${after.itemId})` : sql``}
              order by d.created_at desc, d.item_id desc limit ${limit + 1}`,
        );
        if (!user && found.length === 0 && !after) return null;
        const page = found.slice(0, limit);
        const last = page.at(-1);
        return {
          user,
          userKey,
          documents: page.map(toDocumentSummary),
          // The database's own text of the time (microseconds), which a JS Date would round.
          nextCursor: found.length > limit && last ? encodeUserCursor(last.cursor_at, last.item_id) : null,
        };
      });
    },

    /** One document with its full audit trail (oldest first) and the technical facts kept with each event. */
    getOperatorDocument(userKey: string, itemId: string): Promise<OperatorDocumentPage | null> {
      return run("document", async (db) => {
        const [doc] = await queryRows<
          DocumentSummaryRow & { file_id: string; subdocid: number; container: string | null; size: string | number | null; md5: string | null; replaced_by_item_id: string | null }
        >(
          db,
          sql`select ${DOCUMENT_SUMMARY_COLUMNS}, d.file_id, d.subdocid, d.container, d.size, d.md5, d.replaced_by_item_id
              from documents d left join users u on u.user_key = d.user_key
              where d.user_key = ${userKey} and d.item_id = ${itemId}`,
        );
        if (!doc) return null;
        const events = await queryRows<{ event_id: string; type: DocumentEventType; at: string; recorded_at: string; request_id: string | null; device: string | null; details: Record<string, unknown> }>(
          db,
          sql`select e.event_id::text as event_id, e.type, ${iso(sql`e.at`)} as at, ${iso(sql`e.recorded_at`)} as recorded_at, e.request_id, e.device, e.details
              from document_events e where e.user_key = ${userKey} and e.item_id = ${itemId}
              order by e.at asc, e.id asc`,
        );
        return {
          user: await findUser(db, userKey),
          document: {
            ...toDocumentSummary(doc),
            fileId: doc.file_id,
            subdocid: doc.subdocid,
            container: doc.container,
            // bigint: node-postgres gives text.
            size: doc.size === null ? null : Number(doc.size),
            md5: doc.md5,
            replacedByItemId: doc.replaced_by_item_id,
          },
          events: events.map((e) => ({ eventId: e.event_id, type: e.type, at: e.at, recordedAt: e.recorded_at, requestId: e.request_id, device: e.device, details: e.details })),
        };
      });
    },

    /** Appends one line to the access log; resolves once it is written (committed). */
    recordOperatorAccess(operator: Operator, input: OperatorAccessInput): Promise<void> {
      return run("access_record", async (db) => {
        await db.insert(operatorAccessLog).values({
          operatorUserKey: operator.userKey,
          operatorEmail: operator.email,
          action: input.action satisfies OperatorAccessAction,
          subjectUserKey: input.subjectUserKey ?? null,
          itemId: input.itemId ?? null,
          // Bounded: a search text is at most what the search takes.
          detail: input.detail?.slice(0, 500) ?? null,
        });
      });
    },

    /** The access log, newest first, `limit` lines before the id `before` (keyset); `nextBefore` continues it. */
    listOperatorAccess(options: { before?: number; limit?: number } = {}): Promise<{ entries: OperatorAccessEntry[]; nextBefore: number | null }> {
      const limit = Math.min(Math.max(1, options.limit ?? 50), 500);
      return run("access_list", async (db) => {
        const found = await accessRows(db, sql`${options.before !== undefined ? sql`where a.id < ${options.before}` : sql``} order by a.id desc limit ${limit + 1}`);
        const page = found.slice(0, limit);
        return { entries: page, nextBefore: found.length > limit ? (page.at(-1)?.id ?? null) : null };
      });
    },

    /** The whole access log, oldest first, in keyset batches of `batchSize` (for the export; nothing held between batches). */
    async *exportAccessBatches(batchSize: number): AsyncGenerator<OperatorAccessEntry[]> {
      let after = 0;
      for (;;) {
        const batch = await run("access_export", (db) => accessRows(db, sql`where a.id > ${after} order by a.id asc limit ${batchSize}`));
        if (batch.length > 0) yield batch;
        const last = batch.at(-1);
        if (!last || batch.length < batchSize) return;
        after = last.id;
        await yieldToEventLoop();
      }
    },

    /**
     * The documents created in [from, to) across users, oldest first, with the user's email and the error code of
     * the last failure, in keyset batches on (created_at, user_key, item_id): one batch in memory at a time.
     */
    async *exportPeriodBatches(period: Pick<OperatorPeriod, "from" | "to">, batchSize: number): AsyncGenerator<OperatorExportRow[]> {
      let after: { at: string; userKey: string; itemId: string } | undefined;
      for (;;) {
        const found = await run("export", (db) =>
          queryRows<DocumentSummaryRow & { cursor_at: string; size: string | number | null; md5: string | null; last_error_code: string | null }>(
            db,
            sql`select ${DOCUMENT_SUMMARY_COLUMNS}, d.created_at::text as cursor_at, d.size, d.md5,
                  (select e.details->>'errorCode' from document_events e
                   where e.user_key = d.user_key and e.item_id = d.item_id and e.type = 'failed'
                   order by e.at desc, e.id desc limit 1) as last_error_code
                from documents d left join users u on u.user_key = d.user_key
                where d.created_at >= ${period.from.toISOString()}::timestamptz and d.created_at < ${period.to.toISOString()}::timestamptz
                  ${after ? sql`and (d.created_at, d.user_key, d.item_id) > (${after.at}::timestamptz, ${after.userKey}, ${after.itemId})` : sql``}
                order by d.created_at, d.user_key, d.item_id limit ${batchSize}`,
          ),
        );
        if (found.length > 0) {
          yield found.map((row) => ({
            ...toDocumentSummary(row),
            size: row.size === null ? null : Number(row.size),
            md5: row.md5,
            lastErrorCode: row.last_error_code,
          }));
        }
        const last = found.at(-1);
        if (!last || found.length < batchSize) return;
        after = { at: last.cursor_at, userKey: last.user_key, itemId: last.item_id };
        await yieldToEventLoop();
      }
    },

    /**
     * Removes the users not seen since `before` who have no document records left (DOCUMENT_RETENTION_DAYS, after
     * the documents' own sweep); resolves how many went.
     */
    deleteUsersNotSeenSince(before: Date): Promise<number> {
      return run("retention_sweep", async (db) => {
        const deleted = await queryRows<{ user_key: string }>(
          db,
          sql`delete from users u where u.last_seen_at < ${before.toISOString()}::timestamptz
              and not exists (select 1 from documents d where d.user_key = u.user_key) returning u.user_key`,
        );
        return deleted.length;
      });
    },
  };
}

/** One document of the operator's export. */
export type OperatorExportRow = OperatorDocumentSummary & { size: number | null; md5: string | null; lastErrorCode: string | null };

type AccessRow = {
  id: string | number;
  at: string;
  operator_user_key: string;
  operator_email: string;
  action: OperatorAccessAction;
  subject_user_key: string | null;
  subject_email: string | null;
  item_id: string | null;
  detail: string | null;
};

async function accessRows(db: Database, tail: SQL): Promise<OperatorAccessEntry[]> {
  const found = await queryRows<AccessRow>(
    db,
    sql`select a.id, ${iso(sql`a.at`)} as at, a.operator_user_key, a.operator_email, a.action, a.subject_user_key, u.email as subject_email, a.item_id, a.detail
        from operator_access_log a left join users u on u.user_key = a.subject_user_key ${tail}`,
  );
  return found.map((row) => ({
    // bigint: node-postgres gives text.
    id: Number(row.id),
    at: row.at,
    operatorUserKey: row.operator_user_key,
    operatorEmail: row.operator_email,
    action: row.action,
    subjectUserKey: row.subject_user_key,
    subjectEmail: row.subject_email,
    itemId: row.item_id,
    detail: row.detail,
  }));
}

export type OperatorRecords = ReturnType<typeof operatorRecordsFor>;

/** The operator's reads in this process's database (lib/db/client.ts). */
export const operatorRecords: OperatorRecords = operatorRecordsFor(getDatabase, configuredDatabaseKind);

export const { getOperatorOverview, listStuckDocuments, searchOperator, getOperatorUser, getOperatorDocument, recordOperatorAccess, listOperatorAccess } = operatorRecords;
