import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "@/lib/db/client";
import type { OperatorAccessAction } from "@/lib/db/schema";
import { iso } from "@/lib/operators/records/columns";
import type { OperatorAccessEntry } from "@/lib/operators/types";

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

/** Lines of the access log (aliased `a`) with the subject's email; `tail` adds the condition, order and limit. */
export async function accessRows(db: Database, tail: SQL): Promise<OperatorAccessEntry[]> {
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
