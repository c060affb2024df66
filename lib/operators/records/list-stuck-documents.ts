import "server-only";
// Counting: one query reads every stuck document with its last event; `count(*) over ()` over all of them is the
// total, and the same count filtered to rows at or before the cursor is how many earlier pages held (`skipped`).
// Past the last page no row is returned to carry them, so a second query counts them alone.
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/lib/db/client";
import type { DocumentEventType, DocumentStatus } from "@/lib/db/schema";
import { iso } from "@/lib/operators/records/columns";
import type { StuckDocumentsQuery, StuckPage } from "@/lib/operators/types";

export const DEFAULT_NEVER_UPLOADED_AFTER_MS = 60 * 60_000;
export const DEFAULT_SILENT_UPLOAD_AFTER_MS = 30 * 60_000;

type StuckRow = {
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
};

/**
 * Documents that need a look, oldest last event first: still "created" `neverUploadedAfterMs` after creation (no
 * upload started), or "uploading" with no event for `silentUploadAfterMs` (the reporter's times). Removed documents
 * (the user gave up on them) and documents created after `now` are left out. A page at a time, after `after`, with
 * the count of all of them and of those before this page.
 */
export async function listStuckDocuments(db: Database, query: StuckDocumentsQuery): Promise<StuckPage> {
  const now = query.now;
  const neverBefore = new Date(now.getTime() - (query.neverUploadedAfterMs ?? DEFAULT_NEVER_UPLOADED_AFTER_MS));
  const silentBefore = new Date(now.getTime() - (query.silentUploadAfterMs ?? DEFAULT_SILENT_UPLOAD_AFTER_MS));
  const limit = Math.min(Math.max(1, query.limit ?? 100), 500);
  // The cursor compares exact microseconds (extract gives numeric): no rounding can repeat or skip a row.
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
  const found = await queryRows<StuckRow>(
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
}
