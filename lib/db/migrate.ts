import "server-only";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";

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
 * Applies pending migrations to a PostgreSQL server, one instance at a time: on a dedicated connection (a pooled
 * one could be handed back between lock and unlock), holding pg_advisory_lock around drizzle's migrator. A second
 * instance waits for the first and then finds nothing left to apply. The session lock does not hold through
 * PgBouncer in transaction mode: point DATABASE_URL at PostgreSQL itself or a session-mode pool.
 */
export async function migratePostgresDatabase(connectionString: string, connectionTimeoutMillis: number): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis });
  // A connection dropped while idle would otherwise crash the process: the failure reaches the awaited query.
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
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
