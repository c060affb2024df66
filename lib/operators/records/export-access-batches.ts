import "server-only";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { sql } from "drizzle-orm";
import type { RunQuery } from "@/lib/db/database-operations";
import { accessRows } from "@/lib/operators/records/access-rows";
import type { OperatorAccessEntry } from "@/lib/operators/types";

/** The whole access log, oldest first, in keyset batches of `batchSize`, each batch one `runQuery`; nothing held between batches. */
export async function* exportAccessBatches(runQuery: RunQuery, batchSize: number): AsyncGenerator<OperatorAccessEntry[]> {
  let after = 0;
  for (;;) {
    const batch = await runQuery((db) => accessRows(db, sql`where a.id > ${after} order by a.id asc limit ${batchSize}`));
    if (batch.length > 0) yield batch;
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = last.id;
    await yieldToEventLoop();
  }
}
