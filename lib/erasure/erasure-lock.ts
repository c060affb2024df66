import "server-only";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/lib/db/client";

/**
 * The advisory lock space of erasures (the first key of PostgreSQL's two-key advisory locks; the second is a hash of
 * the user key). Any fixed number, the same in every instance; the migration lock uses the one-key form, a separate
 * space.
 */
const ERASURE_LOCK_SPACE = 4_801;

/**
 * Holds the user's erasure lock until the transaction ends: exclusively for an erasure, shared for a write that may
 * add a document. An erasure then waits for the writes under way and a write waits for the erasure under way, so a
 * write either lands before the erasure (which removes it) or sees the erasure in the ledger (erasedSince); none
 * lands in between. Taken first in a transaction, before any row lock, so the two never wait on each other.
 */
export async function holdErasureLock(tx: Database, userKey: string, mode: "erase" | "write"): Promise<void> {
  await tx.execute(
    mode === "erase"
      ? sql`select pg_advisory_xact_lock(${ERASURE_LOCK_SPACE}, hashtext(${userKey}))`
      : sql`select pg_advisory_xact_lock_shared(${ERASURE_LOCK_SPACE}, hashtext(${userKey}))`,
  );
}

/**
 * Whether the user's records were erased at or after `createdAt`, read under the shared erasure lock (take it with
 * holdErasureLock first): a document created before an erasure is never recorded again, however late its report.
 */
export async function erasedSince(tx: Database, userKey: string, createdAt: Date): Promise<boolean> {
  const [row] = await queryRows<{ erased: boolean }>(
    tx,
    sql`select exists (select 1 from erasure_ledger where user_key = ${userKey} and erased_at >= ${createdAt.toISOString()}::timestamptz) as erased`,
  );
  return row?.erased === true;
}
