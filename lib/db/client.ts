import "server-only";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { acquireDataDirLock, DataDirLockedError } from "@/lib/db/data-dir-lock";
import { migratePgliteDatabase, migratePostgresDatabase } from "@/lib/db/migrate";
import { readPgliteSeed } from "@/lib/db/pglite-seed";
import { schema } from "@/lib/db/schema";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = "pglite" | "postgres";
export type OpenDatabase = {
  db: Database;
  kind: DatabaseKind;
  /** For logs: the folder, or host:port/database (never the URL, which may carry a password). */
  where: string;
  close(): Promise<void>;
};
export type DatabaseOptions = { url?: string; dir: string };

/**
 * PGlite's default shared_buffers is 128 MB, most of which a small app never touches but a WASM heap never
 * gives back; 16 MB keeps a reopened instance at about 190–260 MiB RSS. Added to the defaults, since
 * `startParams` replaces them all.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/** A connection attempt to PostgreSQL gives up after this; a request never waits on a dead server for longer. */
export const CONNECT_TIMEOUT_MS = 2_000;
/** Any one query gives up after this (client-side, so a frozen server counts too). */
const QUERY_TIMEOUT_MS = 5_000;
const POOL_SIZE = 10;

async function openPglite(dir: string): Promise<OpenDatabase> {
  const dataDir = path.resolve(dir);
  // PGlite creates the data folder itself but not its parents; the lock file goes inside it first.
  await mkdir(dataDir, { recursive: true });
  const lock = acquireDataDirLock(dataDir);
  let client: PGlite | undefined;
  try {
    // An empty folder starts from the build's seed when there is one; migrations then apply anything newer.
    const seed = readPgliteSeed(dataDir);
    client = await PGlite.create({ dataDir, startParams: PGLITE_START_PARAMS, ...(seed ? { loadDataDir: seed } : {}) });
    await migratePgliteDatabase(client);
  } catch (error) {
    await client?.close().catch(() => {});
    lock.release();
    throw error;
  }
  const opened = client;
  return {
    db: drizzlePglite({ client: opened, schema }),
    kind: "pglite",
    where: dataDir,
    async close() {
      try {
        await opened.close();
      } finally {
        lock.release();
      }
    },
  };
}

function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

async function openPostgres(url: string): Promise<OpenDatabase> {
  await migratePostgresDatabase(url, CONNECT_TIMEOUT_MS);
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    application_name: "esign-partner-app",
  });
  // An idle connection dropped by the server (restart, failover) would otherwise crash the process; the pool
  // replaces it on the next query.
  pool.on("error", (error) => getLogger().warn({ msg: `database: idle PostgreSQL connection lost (${error.message})` }));
  return {
    db: drizzleNodePg({ client: pool, schema }),
    kind: "postgres",
    where: describeUrl(url),
    close: () => pool.end(),
  };
}

/**
 * Opens the database and applies pending migrations: PostgreSQL when `url` is set, otherwise PGlite in `dir`
 * (refused with DataDirLockedError when another process holds that folder). Not cached: see getDatabase.
 */
export async function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  return options.url ? openPostgres(options.url) : openPglite(options.dir);
}

type DatabaseState = { opening?: Promise<OpenDatabase> };
const STATE_KEY = Symbol.for("esign.database");

// On globalThis: Next evaluates server modules once per bundle, and hot reload re-evaluates them; one database
// (one PGlite instance, one pool) per process.
function state(): DatabaseState {
  const g = globalThis as typeof globalThis & { [STATE_KEY]?: DatabaseState };
  g[STATE_KEY] ??= {};
  return g[STATE_KEY];
}

/**
 * This process's database, opened and migrated on first use. A failed open is forgotten, so the next caller tries
 * again (PostgreSQL may be back) instead of every later request failing on a cached rejection.
 */
export function getDatabase(): Promise<OpenDatabase> {
  const s = state();
  if (!s.opening) {
    const { database } = getConfig();
    const opening = openDatabase(database);
    s.opening = opening;
    opening.catch(() => {
      if (s.opening === opening) s.opening = undefined;
    });
  }
  return s.opening;
}

/** This process's Drizzle database (see getDatabase). */
export async function getDb(): Promise<Database> {
  return (await getDatabase()).db;
}

/** Opens the database if need be and runs a trivial query: the readiness probe (lib/health/dependency-probes.ts). */
export async function pingDatabase(): Promise<void> {
  const { db } = await getDatabase();
  await db.execute(sql`select 1`);
}

/** Which database this process is configured for, without opening it. */
export function configuredDatabaseKind(): DatabaseKind {
  return getConfig().database.url ? "postgres" : "pglite";
}

/**
 * Opens and migrates the database before the server takes requests (instrumentation.ts). Another process on the
 * embedded database's folder is fatal: both would write and one's rows would be lost. Any other failure (PostgreSQL
 * down) is logged and the server starts anyway: uploads never wait on the database, and the next request retries.
 */
export async function prepareDatabaseAtStartup(): Promise<void> {
  const logger = getLogger();
  const started = performance.now();
  try {
    const { kind, where } = await getDatabase();
    logger.info({ msg: `database: ${kind === "pglite" ? "embedded PGlite" : "PostgreSQL"} at ${where} ready, migrations applied`, ms: Math.round(performance.now() - started) });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    logger.error({ msg: `database: not available at start-up (${(error as Error).message}); document records are retried on each request` });
  }
}

/** Closes the process's database if it was opened: the last step of a graceful shutdown. */
export async function closeDatabase(): Promise<void> {
  const s = state();
  const opening = s.opening;
  s.opening = undefined;
  if (!opening) return;
  try {
    await (await opening).close();
  } catch {
    // It never opened, or is already gone.
  }
}
