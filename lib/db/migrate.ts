import "server-only";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { SchemaNotReadyError } from "@/lib/db/database-errors";

/**
 * The committed SQL migrations (`npm run db:generate` writes them). Read from the working directory rather than
 * next to this module, so that Next's standalone build traces the folder into its output (docs/deployment.md).
 */
export const MIGRATIONS_FOLDER = path.join(process.cwd(), "lib", "db", "migrations");

/**
 * Any fixed number, the same in every instance: the session-level advisory lock that one migrator at a time
 * holds. Drizzle's migrator takes no lock of its own, and two instances migrating a fresh database together
 * failed about half the time (duplicate type or relation) before this lock.
 */
const MIGRATION_LOCK_KEY = 4_523_100_023;

/** Applies pending migrations to an embedded database; its folder lock already keeps other processes out. */
export async function migratePgliteDatabase(client: PGlite): Promise<void> {
  await migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
}

/**
 * How long an instance waits for another one's migration lock before giving up this attempt (it tries again later,
 * see getDatabase in client.ts). Also the session's `lock_timeout` for the migration's own statements: DDL waiting
 * behind a long transaction fails and is retried rather than queueing every other query on that table behind it.
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 10_000;

export type MigrateOptions = {
  connectionTimeoutMillis: number;
  lockTimeoutMs: number;
  /** Called when another instance holds the lock and this one starts waiting for it. */
  onWaitingForLock?: () => void;
};

/**
 * Applies pending migrations to a PostgreSQL server, one instance at a time: on a dedicated connection (a pooled
 * one could be handed back between lock and unlock), holding an advisory lock around drizzle's migrator. A second
 * instance waits for the first, at most `lockTimeoutMs` (then SchemaNotReadyError), and then finds nothing left to
 * apply. The session lock does not hold through PgBouncer in transaction mode: point DATABASE_URL at PostgreSQL
 * itself or a session-mode pool.
 */
export async function migratePostgresDatabase(connectionString: string, options: MigrateOptions): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: options.connectionTimeoutMillis });
  // A connection dropped while idle would otherwise crash the process: the failure reaches the awaited query.
  client.on("error", () => {});
  // The lock statements also give up client-side, should the server stop answering altogether (frozen, unreachable).
  // node-postgres honours a per-query `query_timeout` (Client#query); @types/pg lists it on the client config only.
  const bounded = (text: string, values: unknown[] = []) =>
    client.query<{ locked?: boolean }>({ text, values, query_timeout: options.lockTimeoutMs + options.connectionTimeoutMillis } as pg.QueryConfig);
  await client.connect();
  try {
    await bounded(`set lock_timeout = ${Math.max(1, Math.round(options.lockTimeoutMs))}`);
    const tried = await bounded("select pg_try_advisory_lock($1) as locked", [MIGRATION_LOCK_KEY]);
    if (!tried.rows[0]?.locked) {
      options.onWaitingForLock?.();
      try {
        await bounded("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      } catch (error) {
        // 55P03 lock_not_available: lock_timeout ran out while another instance held the lock.
        if ((error as { code?: unknown }).code === "55P03") {
          throw new SchemaNotReadyError(`another instance held the migration lock for longer than ${options.lockTimeoutMs / 1000} s`, { cause: error });
        }
        throw error;
      }
    }
    try {
      await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      // A dropped connection has released the lock with its session; its error must not hide the migration's.
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}
