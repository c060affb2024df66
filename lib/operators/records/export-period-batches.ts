import "server-only";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import type { RunQuery } from "@/lib/db/database-operations";
import { DOCUMENT_SUMMARY_COLUMNS, toDocumentSummary, type DocumentSummaryRow } from "@/lib/operators/records/columns";
import type { OperatorDocumentSummary, OperatorPeriod } from "@/lib/operators/types";

/** One document of the operator's export. */
export type OperatorExportRow = OperatorDocumentSummary & { size: number | null; md5: string | null; lastErrorCode: string | null };

type ExportRow = DocumentSummaryRow & { cursor_at: string; size: string | number | null; md5: string | null; last_error_code: string | null };

/**
 * The documents created in [from, to) across users, oldest first, with the user's email and the error code of the
 * last failure, in keyset batches on (created_at, user_key, item_id), each batch one `runQuery`: one batch in
 * memory at a time.
 */
export async function* exportPeriodBatches(runQuery: RunQuery, period: Pick<OperatorPeriod, "from" | "to">, batchSize: number): AsyncGenerator<OperatorExportRow[]> {
  let after: { at: string; userKey: string; itemId: string } | undefined;
  for (;;) {
    const found = await runQuery((db) =>
      queryRows<ExportRow>(
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
      yield found.map((row) => ({ ...toDocumentSummary(row), size: row.size === null ? null : Number(row.size), md5: row.md5, lastErrorCode: row.last_error_code }));
    }
    const last = found.at(-1);
    if (!last || found.length < batchSize) return;
    after = { at: last.cursor_at, userKey: last.user_key, itemId: last.item_id };
    await yieldToEventLoop();
  }
}
