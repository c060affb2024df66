import "server-only";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/lib/db/client";
import { toUser, USER_COLUMNS, type UserRow } from "@/lib/operators/records/columns";
import type { OperatorUserRecord } from "@/lib/operators/types";

/** The user as kept at their last sign-in, or null. */
export async function findOperatorUser(db: Database, userKey: string): Promise<OperatorUserRecord | null> {
  const [row] = await queryRows<UserRow>(db, sql`select ${USER_COLUMNS} from users u where u.user_key = ${userKey}`);
  return row ? toUser(row) : null;
}
