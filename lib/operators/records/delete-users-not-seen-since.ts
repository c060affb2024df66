import "server-only";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/lib/db/client";

/**
 * Removes the users not seen since `before` who have no document records left (DOCUMENT_RETENTION_DAYS, after the
 * documents' own sweep); resolves how many went.
 */
export async function deleteUsersNotSeenSince(db: Database, before: Date): Promise<number> {
  const deleted = await queryRows<{ user_key: string }>(
    db,
    sql`delete from users u where u.last_seen_at < ${before.toISOString()}::timestamptz
        and not exists (select 1 from documents d where d.user_key = u.user_key) returning u.user_key`,
  );
  return deleted.length;
}
