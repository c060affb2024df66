import "server-only";
import { sql } from "drizzle-orm";
import { configuredDatabaseKind, getDatabase, queryRows, type Database, type DatabaseKind, type OpenDatabase } from "@/lib/db/client";
import { databaseOperations } from "@/lib/db/database-operations";
import { operatorAccessLog } from "@/lib/db/schema";
import { holdErasureLock } from "@/lib/erasure/erasure-lock";
import type { Operator } from "@/lib/operators/types";

/** What one user's records hold (before an erasure), or held (what it removed). */
export type UserRecordCounts = { documents: number; events: number; user: boolean };

/** One line of the erasure ledger: whose records, and when (ISO 8601, UTC). Nothing else is kept. */
export type ErasureEntry = { userKey: string; erasedAt: string };

export type Erasure = UserRecordCounts & { erasedAt: string };

/** An ISO 8601 string in UTC to the microsecond, from the database itself (a JS Date would round to the millisecond). */
const ISO_MICROS = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

async function countRecords(tx: Database, userKey: string): Promise<UserRecordCounts> {
  const [row] = await queryRows<{ documents: number; events: number; user: boolean }>(
    tx,
    sql`select (select count(*)::int from documents where user_key = ${userKey}) as documents,
               (select count(*)::int from document_events where user_key = ${userKey}) as events,
               exists (select 1 from users where user_key = ${userKey}) as "user"`,
  );
  return { documents: row?.documents ?? 0, events: row?.events ?? 0, user: row?.user === true };
}

/** An erasure an operator made on the user's request: the access log's `erase_user` line, with the reason typed. */
export type OperatorErasure = { operator: Operator; reason: string };

/**
 * Erases one user's records in one transaction: every document record, its events, the user record (email, name),
 * and adds the erasure to the ledger (and, for an operator's, its line to the access log: the operator, the user's
 * key and the reason; never the email or a document name, which the reason's rules keep out). All or nothing: a failure anywhere (the database going away included) leaves
 * everything as it was, and the same call again does the whole erasure. Concurrent erasures of one user run one after
 * the other (the second finds nothing left and adds its own ledger line); writes that may add a document wait for it
 * or see it (lib/erasure/erasure-lock.ts).
 */
export async function eraseUserRecordsIn(db: Database, userKey: string, byOperator?: OperatorErasure): Promise<Erasure> {
  return db.transaction(async (txn) => {
    const tx: Database = txn;
    await holdErasureLock(tx, userKey, "erase");
    const counts = await countRecords(tx, userKey);
    // Events first: their foreign key cascades from documents too, but a plain delete says what goes.
    await tx.execute(sql`delete from document_events where user_key = ${userKey}`);
    await tx.execute(sql`delete from documents where user_key = ${userKey}`);
    await tx.execute(sql`delete from users where user_key = ${userKey}`);
    // clock_timestamp(), not now(): a transaction that waited for the lock must not date the erasure before the writes it waited for.
    const [entry] = await queryRows<{ erased_at: string }>(
      tx,
      sql`insert into erasure_ledger (user_key, erased_at) values (${userKey}, clock_timestamp()) returning ${ISO_MICROS("erased_at")} as erased_at`,
    );
    if (byOperator) {
      await tx.insert(operatorAccessLog).values({
        operatorUserKey: byOperator.operator.userKey,
        operatorEmail: byOperator.operator.email,
        action: "erase_user",
        subjectUserKey: userKey,
        detail: byOperator.reason,
      });
    }
    return { ...counts, erasedAt: entry!.erased_at };
  });
}

/** The ledger, oldest first; with `after`, only the erasures later than it (those a backup taken then does not know). */
export async function listErasuresIn(db: Database, after?: Date): Promise<ErasureEntry[]> {
  const rows = await queryRows<{ user_key: string; erased_at: string }>(
    db,
    sql`select user_key, ${ISO_MICROS("erased_at")} as erased_at from erasure_ledger
        ${after ? sql`where erased_at > ${after.toISOString()}::timestamptz` : sql``} order by erased_at, user_key`,
  );
  return rows.map((row) => ({ userKey: row.user_key, erasedAt: row.erased_at }));
}

/**
 * Applies erasures again to a database, such as one restored from a backup taken before them: for each entry, the
 * user's documents created at or before its time (their events with them) and their user record if first seen by
 * then, and the entry itself into this database's ledger. Records the user made after the erasure (signed in again)
 * are theirs and stay. Idempotent: applying the same list again changes nothing. One transaction: all entries or none.
 * Resolves what it removed, summed over the entries.
 */
export async function reapplyErasuresIn(db: Database, entries: readonly ErasureEntry[]): Promise<UserRecordCounts & { users: number }> {
  return db.transaction(async (txn) => {
    const tx: Database = txn;
    const removed = { documents: 0, events: 0, user: false, users: 0 };
    for (const entry of entries) {
      const at = new Date(entry.erasedAt);
      if (Number.isNaN(at.getTime())) throw new TypeError("an erasure entry's erasedAt is not a time");
      await holdErasureLock(tx, entry.userKey, "erase");
      const events = await queryRows<{ n: number }>(
        tx,
        sql`with gone as (delete from document_events e using documents d
              where e.user_key = ${entry.userKey} and d.user_key = e.user_key and d.item_id = e.item_id and d.created_at <= ${entry.erasedAt}::timestamptz
              returning 1) select count(*)::int as n from gone`,
      );
      const documents = await queryRows<{ n: number }>(
        tx,
        sql`with gone as (delete from documents where user_key = ${entry.userKey} and created_at <= ${entry.erasedAt}::timestamptz returning 1)
            select count(*)::int as n from gone`,
      );
      const users = await queryRows<{ n: number }>(
        tx,
        sql`with gone as (delete from users where user_key = ${entry.userKey} and first_seen_at <= ${entry.erasedAt}::timestamptz returning 1)
            select count(*)::int as n from gone`,
      );
      await tx.execute(sql`insert into erasure_ledger (user_key, erased_at) values (${entry.userKey}, ${entry.erasedAt}::timestamptz) on conflict do nothing`);
      removed.events += events[0]?.n ?? 0;
      removed.documents += documents[0]?.n ?? 0;
      removed.users += users[0]?.n ?? 0;
    }
    removed.user = removed.users > 0;
    return removed;
  });
}

/**
 * The erasure operations on one database (lib/db), as the routes call them: failures become DatabaseUnavailableError
 * (a 503: nothing was erased, try again) or a DatabaseQueryError naming the operation, never the query's values
 * (lib/db/database-operations.ts).
 */
export function erasureRecordsFor(open: () => Promise<Pick<OpenDatabase, "db" | "kind">>, configuredKind?: () => DatabaseKind) {
  const operations = databaseOperations(open, configuredKind);
  const run = <T>(operation: string, work: (db: Database) => Promise<T>) => operations.run(`erasure ${operation}`, "erasure", work);
  return {
    /** What the user's records hold now: for the confirmation's "N documents and their histories". */
    countUserRecords: (userKey: string) => run("count", (db) => countRecords(db, userKey)),
    eraseUserRecords: (userKey: string, byOperator?: OperatorErasure) => run("erase", (db) => eraseUserRecordsIn(db, userKey, byOperator)),
    listErasures: (after?: Date) => run("list", (db) => listErasuresIn(db, after)),
    reapplyErasures: (entries: readonly ErasureEntry[]) => run("reapply", (db) => reapplyErasuresIn(db, entries)),
  };
}

export type ErasureRecords = ReturnType<typeof erasureRecordsFor>;

/** The erasure operations in this process's database (lib/db/client.ts). */
export const erasureRecords: ErasureRecords = erasureRecordsFor(getDatabase, configuredDatabaseKind);
