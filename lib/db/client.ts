import "server-only";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { acquireDataDirLock, DataDirLockedError } from "@/lib/db/data-dir-lock";
import { DurableNodeFS, syncFolderTree } from "@/lib/db/durable-pglite";
import { startEmbeddedMaintenance } from "@/lib/db/embedded-maintenance";
import { DatabaseUnavailableError, describeDatabaseFailure, SchemaNotReadyError } from "@/lib/db/database-errors";
import { MIGRATION_LOCK_TIMEOUT_MS, migratePgliteDatabase, migratePostgresDatabase } from "@/lib/db/migrate";
import { readPgliteSeed } from "@/lib/db/pglite-seed";
import { schema } from "@/lib/db/schema";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = "pglite" | "postgres";
/** The embedded database's own handle, for what only the process holding its folder may do (lib/backup). */
export type EmbeddedDatabase = { client: PGlite; dataDir: string };
export type OpenDatabase = {
  db: Database;
  /** Set for PGlite only. */
  embedded?: EmbeddedDatabase;
  kind: DatabaseKind;
  /** For logs: the folder, or host:port/database (never the URL, which may carry a password). */
  where: string;
  /**
   * Throws when this process may no longer write to it: the embedded database's folder lock was lost (its lock file
   * removed or replaced, see lib/server/folder-lock.ts). Cheap; getDatabase calls it before handing the database out.
   */
  assertWritable(): void;
  /**
   * Closes it. The embedded database whose folder lock was lost is aborted instead (no shutdown checkpoint, nothing
   * more written to a folder another process may own now); the next open replays its WAL.
   */
  close(): Promise<void>;
};
export type DatabaseOptions = {
  url?: string;
  dir: string;
  /** PostgreSQL: how long to wait for another instance's migration lock (default MIGRATION_LOCK_TIMEOUT_MS). */
  migrationLockTimeoutMs?: number;
  /** PostgreSQL: called when another instance holds the migration lock and this open starts waiting for it. */
  onWaitingForMigrationLock?: () => void;
};

/**
 * PGlite's defaults, except two. Its `-F` (fsync off) is dropped: with DurableNodeFS a commit is answered only once
 * its WAL is on disk (docs/decisions/012-durable-pglite.md). Its default shared_buffers is 128 MB, most of which a
 * small app never touches but a WASM heap never gives back; 16 MB keeps a reopened instance at about 190–260 MiB
 * RSS. Spelled out from the defaults, since `startParams` replaces them all.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams.filter((param) => param !== "-F"), "-c", "shared_buffers=16MB"];

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
  const fs = new DurableNodeFS(dataDir);
  let client: PGlite | undefined;
  let maintenance: Awaited<ReturnType<typeof startEmbeddedMaintenance>>;
  try {
    const fresh = !existsSync(path.join(dataDir, "PG_VERSION"));
    // An empty folder starts from the build's seed when there is one; migrations then apply anything newer.
    const seed = readPgliteSeed(dataDir);
    client = await PGlite.create({ fs, startParams: PGLITE_START_PARAMS, ...(seed ? { loadDataDir: seed } : {}) });
    // The files the seed (or initdb) wrote are not PostgreSQL's writes, and so not synced by it.
    if (fresh) syncFolderTree(dataDir);
    await migratePgliteDatabase(client);
    // No autovacuum in a single backend: the app analyzes and vacuums the tables itself.
    maintenance = await startEmbeddedMaintenance(client, () => {
      try {
        lock.assertHeld();
        return true;
      } catch {
        return false;
      }
    });
  } catch (error) {
    await client?.close().catch(() => {});
    lock.release();
    throw error;
  }
  const opened = client;
  return {
    db: drizzlePglite({ client: opened, schema }),
    embedded: { client: opened, dataDir },
    kind: "pglite",
    where: dataDir,
    assertWritable: () => lock.assertHeld(),
    async close() {
      await maintenance.stop();
      try {
        lock.assertHeld();
      } catch (error) {
        // Another process may own the folder now: a graceful close would write a shutdown checkpoint and the control
        // file into its database. Abort instead: nothing more is written, as after a crash (the WAL this instance
        // synced is replayed by whoever opens the folder next).
        getLogger().error({ msg: `database: embedded database closed without a shutdown checkpoint (${(error as Error).name})` });
        fs.abort();
        lock.release();
        return;
      }
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

async function openPostgres(options: DatabaseOptions & { url: string }): Promise<OpenDatabase> {
  const { url } = options;
  await migratePostgresDatabase(url, {
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    lockTimeoutMs: options.migrationLockTimeoutMs ?? MIGRATION_LOCK_TIMEOUT_MS,
    onWaitingForLock: options.onWaitingForMigrationLock,
  });
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
    // PostgreSQL keeps writers apart itself.
    assertWritable: () => {},
    close: () => pool.end(),
  };
}

/** A query's rows: node-postgres and PGlite both answer with `rows`. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Opens the database and applies pending migrations: PostgreSQL when `url` is set, otherwise PGlite in `dir`
 * (refused with DataDirLockedError when another process holds that folder). On PostgreSQL, waiting for another
 * instance's migration lock ends after `migrationLockTimeoutMs` with SchemaNotReadyError. Not cached: see getDatabase.
 */
export async function openDatabase(options: DatabaseOptions): Promise<OpenDatabase> {
  return options.url ? openPostgres({ ...options, url: options.url }) : openPglite(options.dir);
}

/** After a failed open on PostgreSQL, the next background attempt comes after this, doubling up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

type DatabaseState = {
  /** The attempt under way (or the last one, once it succeeded). */
  opening?: Promise<OpenDatabase>;
  /** The attempt's result, once it succeeded. */
  opened?: OpenDatabase;
  /** Set while the attempt waits for another instance's migration lock: callers get it at once instead of waiting. */
  waiting?: SchemaNotReadyError;
  /** Rejects with `waiting` when the attempt starts waiting for the lock, so callers already waiting give up too. */
  blocked?: Promise<never>;
  /** Failed attempts in a row, and the timer of the next background attempt (PostgreSQL). */
  failures: number;
  retry?: NodeJS.Timeout;
};
const STATE_KEY = Symbol.for("esign.database");

// On globalThis: Next evaluates server modules once per bundle, and hot reload re-evaluates them; one database
// (one PGlite instance, one pool) per process.
function state(): DatabaseState {
  const g = globalThis as typeof globalThis & { [STATE_KEY]?: DatabaseState };
  g[STATE_KEY] ??= { failures: 0 };
  return g[STATE_KEY];
}

function startOpening(s: DatabaseState): void {
  clearTimeout(s.retry);
  s.retry = undefined;
  let markWaiting: (error: SchemaNotReadyError) => void = () => {};
  const blocked = new Promise<never>((_, reject) => (markWaiting = reject));
  blocked.catch(() => {});
  const waiting = new SchemaNotReadyError(`waiting for another instance's migration (lock held; this instance waits up to ${MIGRATION_LOCK_TIMEOUT_MS / 1000} s, then tries again)`);
  const opening = openDatabase({
    ...getConfig().database,
    onWaitingForMigrationLock: () => {
      if (s.opening !== opening) return;
      s.waiting = waiting;
      markWaiting(waiting);
    },
  });
  s.opening = opening;
  s.blocked = blocked;
  s.waiting = undefined;
  opening.then(
    (opened) => {
      if (s.opening !== opening) return;
      if (s.failures > 0 || s.waiting) getLogger().info({ msg: `database: ${opened.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"} at ${opened.where} ready, migrations applied` });
      s.opened = opened;
      s.waiting = undefined;
      s.failures = 0;
    },
    (error: unknown) => {
      if (s.opening !== opening) return;
      s.opening = undefined;
      s.waiting = undefined;
      s.failures += 1;
      // PostgreSQL is tried again in the background (its migrations too), so the schema gets ready without waiting
      // for a request; the embedded database is opened again by the next request.
      if (!getConfig().database.url) return;
      const delay = Math.min(RETRY_FIRST_MS * 2 ** (s.failures - 1), RETRY_MAX_MS);
      if (s.failures === 1) getLogger().warn({ msg: `database: not ready (${describeDatabaseFailure(error)}); tried again in the background, document routes answer 503 until then` });
      s.retry = setTimeout(() => {
        s.retry = undefined;
        if (!s.opening) startOpening(s);
      }, delay);
      s.retry.unref();
    },
  );
}

/**
 * This process's database, opened and migrated on first use. Never waits on another instance's migration: while
 * this instance waits for the migration lock, callers get SchemaNotReadyError (a 503 DATABASE_UNAVAILABLE) at once.
 * A failed open is forgotten, so the next caller tries again (PostgreSQL may be back), and PostgreSQL is also tried
 * again in the background. The embedded database is checked to be still this process's before it is handed out:
 * if its folder lock was lost, it is closed without a shutdown checkpoint (see openPglite's close) and the call fails
 * (the next one opens it again, if the folder is free).
 */
export function getDatabase(): Promise<OpenDatabase> {
  const s = state();
  if (s.opened) {
    const opened = s.opened;
    try {
      opened.assertWritable();
      return Promise.resolve(opened);
    } catch (error) {
      getLogger().error({ msg: `database: ${(error as Error).message}` });
      Object.assign(s, { opened: undefined, waiting: undefined, blocked: undefined });
      const lost = new DatabaseUnavailableError("the embedded database's folder lock was lost", { cause: error });
      // Failed only once closed, so that the next call's open never overlaps this instance.
      s.opening = opened.close().then(
        () => Promise.reject(lost),
        () => Promise.reject(lost),
      );
      const closing = s.opening;
      closing.catch(() => {
        if (s.opening === closing) s.opening = undefined;
      });
      return closing;
    }
  }
  if (!s.opening) startOpening(s);
  if (s.waiting) return Promise.reject(s.waiting);
  const opening = s.opening!;
  return s.blocked ? Promise.race([opening, s.blocked]) : opening;
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
 * embedded database's folder (or a folder on a network filesystem) is fatal: both would write and one's rows would
 * be lost. Nothing else holds the start up: when another instance holds the migration lock, or PostgreSQL is down,
 * it is logged and the server starts anyway (liveness and readiness answer, uploads never wait on the database,
 * document routes answer 503 DATABASE_UNAVAILABLE), and the open is tried again in the background and by requests.
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
    const msg = `database: not ready at start-up (${describeDatabaseFailure(error)}); the server starts, document routes answer 503 until it is, and it is tried again`;
    // Another instance migrating is expected when several start together; anything else is an outage.
    if (error instanceof SchemaNotReadyError) logger.warn({ msg });
    else logger.error({ msg });
  }
}

/** Closes the process's database if it was opened: the last step of a graceful shutdown. */
export async function closeDatabase(): Promise<void> {
  const s = state();
  const opening = s.opening;
  clearTimeout(s.retry);
  Object.assign(s, { opening: undefined, opened: undefined, waiting: undefined, blocked: undefined, retry: undefined, failures: 0 });
  if (!opening) return;
  try {
    await (await opening).close();
  } catch {
    // It never opened, or is already gone.
  }
}
