import { sql, type SQL } from "drizzle-orm";

/** Runs one statement and resolves its rows, on one connection (a session setting holds for the next statement). */
export type Execute = (statement: SQL) => Promise<Record<string, unknown>[]>;

/**
 * EXPLAIN (ANALYZE) of the export's keyset queries past their first batch, as the repository sends them
 * (lib/documents/document-records.ts): documents newest first after the 500th, events by document then time after
 * the 500th (the JSON), and one document's trail after its 500th event (the CSV, for a batch whose trails are long).
 */
export async function exportPlans(userKey: string, execute: Execute): Promise<string[]> {
  const [doc] = await execute(sql`select created_at::text as at, item_id from documents where user_key = ${userKey} order by created_at desc nulls last, item_id desc nulls last offset 499 limit 1`);
  const [event] = await execute(sql`select item_id, at::text as at, id from document_events where user_key = ${userKey} order by item_id, at, id offset 499 limit 1`);
  const [trail] = await execute(sql`select item_id from document_events where user_key = ${userKey} group by item_id order by count(*) desc limit 1`);
  const [inTrail] = await execute(sql`select at::text as at, id from document_events where user_key = ${userKey} and item_id = ${trail!.item_id} order by at, id offset 499 limit 1`);
  const plans = [
    sql`explain (analyze, costs off) select * from documents where user_key = ${userKey}
        and (created_at, item_id) < (${doc!.at}::timestamptz, ${doc!.item_id}) order by created_at desc nulls last, item_id desc nulls last limit 500`,
    sql`explain (analyze, costs off) select * from document_events where user_key = ${userKey}
        and (item_id, at, id) > (${event!.item_id}, ${event!.at}::timestamptz, ${event!.id}) order by item_id, at, id limit 500`,
    sql`explain (analyze, costs off) select * from document_events where user_key = ${userKey} and item_id = ${trail!.item_id}
        and (at, id) > (${inTrail!.at}::timestamptz, ${inTrail!.id}) order by at, id limit 500`,
  ];
  const out: string[] = [];
  for (const [i, plan] of plans.entries()) {
    // The repository reads the documents' batches with sorts off (set local, in the batch's transaction); `execute`
    // is one connection, so a session setting around the statement is the same.
    if (i === 0) await execute(sql`set enable_sort = off`);
    out.push((await execute(plan)).map((r) => Object.values(r)[0]).join("\n"));
    if (i === 0) await execute(sql`reset enable_sort`);
  }
  return out;
}

