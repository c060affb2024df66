import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { accessRows } from "@/lib/operators/records/access-rows";
import type { OperatorAccessEntry } from "@/lib/operators/types";

/** The access log, newest first, `limit` lines before the id `before` (keyset); `nextBefore` continues it. */
export async function listOperatorAccess(db: Database, options: { before?: number; limit?: number } = {}): Promise<{ entries: OperatorAccessEntry[]; nextBefore: number | null }> {
  const limit = Math.min(Math.max(1, options.limit ?? 50), 500);
  const found = await accessRows(db, sql`${options.before !== undefined ? sql`where a.id < ${options.before}` : sql``} order by a.id desc limit ${limit + 1}`);
  const page = found.slice(0, limit);
  return { entries: page, nextBefore: found.length > limit ? (page.at(-1)?.id ?? null) : null };
}
