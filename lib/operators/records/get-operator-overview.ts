import "server-only";
import { sql } from "drizzle-orm";
import { daysOfPeriod } from "@/lib/calendar-days";
import { queryRows, type Database } from "@/lib/db/client";
import type { OperatorOverview, OperatorPeriod } from "@/lib/operators/types";

const COUNTS = ["created", "uploaded", "failed", "cancelled", "replaced", "pending"] as const;
type Counts = Record<(typeof COUNTS)[number], number>;

/**
 * The period's documents (created in [from, to)) by their status now, with the time from creation to upload, the
 * failures by error code, the active users and one entry per day in `timeZone`. The period's totals are the sums
 * of its days, so the figures and the chart always agree.
 */
export async function getOperatorOverview(db: Database, period: OperatorPeriod): Promise<OperatorOverview> {
  const { from, to, timeZone } = period;
  const inPeriod = sql`d.created_at >= ${from.toISOString()}::timestamptz and d.created_at < ${to.toISOString()}::timestamptz`;
  // The period's documents by day and status in one scan.
  const perDay = await queryRows<{ day: string } & Counts>(
    db,
    sql`select to_char(d.created_at at time zone ${timeZone}, 'YYYY-MM-DD') as day, count(*)::int as created,
          count(*) filter (where d.status = 'uploaded')::int as uploaded,
          count(*) filter (where d.status = 'failed')::int as failed,
          count(*) filter (where d.status = 'abandoned')::int as cancelled,
          count(*) filter (where d.status = 'replaced')::int as replaced,
          count(*) filter (where d.status in ('created', 'uploading'))::int as pending
        from documents d where ${inPeriod} group by 1`,
  );
  const byDay = new Map(perDay.map((row) => [row.day, row]));
  const days = daysOfPeriod(from, to, timeZone);
  const c: Counts = { created: 0, uploaded: 0, failed: 0, cancelled: 0, replaced: 0, pending: 0 };
  for (const day of days) for (const key of COUNTS) c[key] += byDay.get(day)?.[key] ?? 0;
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
  return {
    period: { from: from.toISOString(), to: to.toISOString(), timeZone },
    ...c,
    completionRate: c.created > 0 ? c.uploaded / c.created : null,
    creationToUploadMs: { median: times?.median ?? null, p95: times?.p95 ?? null },
    failuresByCode: failures.map((row) => ({ errorCode: row.error_code, count: row.count })),
    activeUsers: active?.users ?? 0,
    days: days.map((day) => {
      const row = byDay.get(day);
      return { day, created: row?.created ?? 0, uploaded: row?.uploaded ?? 0, failed: row?.failed ?? 0 };
    }),
  };
}
