import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NextRequest } from "next/server";
import { signedInCookie } from "../support/signed-in-cookie";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPostgresServer, type RunningPostgres } from "../../scripts/lib/postgres-server";

// Own port (4700–4719 are this area's): a PostgreSQL whose migration lock another "instance" holds.
const POSTGRES_PORT = Number(process.env.TEST_POSTGRES_MIGRATION_WAIT_PORT ?? 4704);
// The key lib/db/migrate.ts locks: here held by a client standing in for another instance's long migration.
const MIGRATION_LOCK_KEY = 4_523_100_023;
const ORIGIN = "http://localhost:3000";

const dir = mkdtempSync(join(tmpdir(), "esign-migration-wait-test-"));
let postgres: RunningPostgres;
let otherInstance: pg.Client;

// One configuration for the whole file (getConfig() caches it).
Object.assign(process.env, {
  AUTH_SECRET: "migration-wait-test-secret-0123456789abcdef",
  SESSION_STORE_DIR: join(dir, "sessions"),
  DATABASE_URL: `postgresql://app@127.0.0.1:${POSTGRES_PORT}/postgres`,
});

const client = await import("@/lib/db/client");
const { SchemaNotReadyError } = await import("@/lib/db/database-errors");
const { checkReadiness } = await import("@/lib/health/readiness");
const { probeDependenciesIfStale, PROBE_INTERVAL_MS } = await import("@/lib/health/dependency-probes");
const readyRoute = await import("@/app/api/health/ready/route");
const listRoute = await import("@/app/api/documents/route");


/** The database's entry in readiness after a fresh probe round (the clock moved past the interval, Date only). */
async function databaseReadiness() {
  vi.setSystemTime(Date.now() + PROBE_INTERVAL_MS + 1);
  await probeDependenciesIfStale();
  const readiness = checkReadiness();
  return { status: readiness.status, database: readiness.dependencies.find((d) => d.name === "database") };
}

beforeAll(async () => {
  postgres = await startPostgresServer(POSTGRES_PORT);
  otherInstance = new pg.Client({ connectionString: postgres.url });
  await otherInstance.connect();
  await otherInstance.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  vi.useFakeTimers({ toFake: ["Date"] });
});

afterAll(async () => {
  vi.useRealTimers();
  await client.closeDatabase();
  await otherInstance?.end().catch(() => {});
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a migration lock held by another instance", () => {
  it("gives up waiting for it after the deadline, naming why", async () => {
    let waited = false;
    const open = client.openDatabase({ url: postgres.url, dir: "unused", migrationLockTimeoutMs: 300, onWaitingForMigrationLock: () => (waited = true) });
    await expect(open).rejects.toBeInstanceOf(SchemaNotReadyError);
    await expect(open).rejects.toThrow("schema not ready: another instance held the migration lock for longer than 0.3 s");
    expect(waited).toBe(true);
  });

  it("never holds up start-up or health: documents answer 503 DATABASE_UNAVAILABLE until the schema is ready, then serve", async () => {
    // Resolves while the lock is still held: the server starts taking requests (it used to wait for the lock).
    await client.prepareDatabaseAtStartup();
    // Nothing was migrated behind the other instance's back: the schema is not there yet.
    const schema = await otherInstance.query<{ documents: string | null }>("select to_regclass('public.documents')::text as documents");
    expect(schema.rows[0]!.documents).toBeNull();

    const schemaWait = expect.stringMatching(/^schema not ready: (waiting for another instance's migration|another instance held the migration lock)/);
    const waiting = await databaseReadiness();
    expect(waiting.status).toBe("ready");
    expect(waiting.database).toMatchObject({ state: "fail", detail: schemaWait });
    // The readiness route, which reports that probe of the database, stays 200 and names the wait.
    const ready = await readyRoute.GET();
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { dependencies: { name: string }[] }).dependencies.find((d) => d.name === "database")).toMatchObject({ state: "fail", detail: schemaWait });

    const cookie = await signedInCookie("migration-wait-user", ORIGIN);
    const list = () => listRoute.GET(new NextRequest(`${ORIGIN}/api/documents`, { headers: { cookie } }), {});
    const refused = await list();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("DATABASE_UNAVAILABLE");

    // The other instance's migration ends: this one takes the lock (its waiting attempt, or the next one), finds or
    // applies the migrations, and serves.
    await otherInstance.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    const served = await vi.waitFor(
      async () => {
        const response = await list();
        if (response.status !== 200) throw new Error(`still ${response.status}`);
        return response;
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(((await served.json()) as { documents: unknown[] }).documents).toEqual([]);
    expect((await otherInstance.query<{ documents: string | null }>("select to_regclass('public.documents')::text as documents")).rows[0]!.documents).toBe("documents");
    expect((await databaseReadiness()).database).toMatchObject({ state: "ok" });
  }, 120_000);
});
