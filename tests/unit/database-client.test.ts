import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getDatabase, openDatabase } from "@/lib/db/client";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { documentRecordsFor } from "@/lib/documents/document-records";
import { startPostgresServer, type RunningPostgres } from "../../scripts/lib/postgres-server";

// Own ports (4700–4719 are this area's): a PostgreSQL for the migration race, and one started late on purpose.
const RACE_PORT = Number(process.env.TEST_POSTGRES_RACE_PORT ?? 4701);
const LATE_PORT = Number(process.env.TEST_POSTGRES_LATE_PORT ?? 4702);

const committedMigrations = (JSON.parse(readFileSync("lib/db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] }).entries.length;

const dirs: string[] = [];
const servers: RunningPostgres[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "esign-db-client-test-"));
  dirs.push(dir);
  return dir;
};

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs the lock helper in another process; resolves what it printed and how it ended. */
function lockInAnotherProcess(dir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "tests/support/acquire-data-dir-lock.ts", dir], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      // It got the lock: let it go again.
      if (stdout.includes("locked")) child.stdin.end();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the embedded database's folder", () => {
  it("serves one process: a second opener is refused with a message naming DATABASE_URL, and a restart keeps every record", async () => {
    const dir = join(tempDir(), "nested", "db");
    const first = await openDatabase({ dir });
    const records = documentRecordsFor(async () => first);
    const itemId = crypto.randomUUID();
    await records.recordEvents("user-a", itemId, [{ id: crypto.randomUUID(), type: "created", at: new Date().toISOString(), fileId: crypto.randomUUID(), subdocid: 0, name: "Kept", doctype: "nda" }], {});

    const refusal = openDatabase({ dir });
    await expect(refusal).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(refusal).rejects.toThrow(/set DATABASE_URL/);
    const other = await lockInAnotherProcess(dir);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`is already in use by process ${process.pid} on ${hostname()}`);
    expect(other.stderr).toContain("set DATABASE_URL to a shared PostgreSQL");

    await first.close();
    const reopened = await openDatabase({ dir });
    try {
      expect((await documentRecordsFor(async () => reopened).getDocument("user-a", itemId))?.document.name).toBe("Kept");
    } finally {
      await reopened.close();
    }
    // Closed: another process may take it now.
    expect((await lockInAnotherProcess(dir)).stdout).toContain("locked");
    // Two PGlite opens and two Node start-ups: far longer than usual on a loaded machine, nothing waits on a clock.
  }, 120_000);
});

describe("opening a PostgreSQL database", () => {
  it("does not keep a failed open: once PostgreSQL is up, the next call opens it", async () => {
    process.env.AUTH_SECRET = "database-client-test-secret-0123456789abcdef";
    process.env.DATABASE_URL = `postgresql://app@127.0.0.1:${LATE_PORT}/postgres`;
    await expect(getDatabase()).rejects.toThrow(/ECONNREFUSED|connect/);
    const late = await startPostgresServer(LATE_PORT);
    servers.push(late);
    // Each call after a failure tries again (and so does the background retry). On a loaded machine one attempt may
    // still fail (one under way while PostgreSQL started, a connect slower than CONNECT_TIMEOUT_MS): a kept failure
    // would fail every call, so calling until one opens (bounded) still shows that nothing failed is kept.
    const opened = await vi.waitFor(() => getDatabase(), { timeout: 60_000, interval: 250 });
    expect(opened.kind).toBe("postgres");
    expect(opened.where).toBe(`127.0.0.1:${LATE_PORT}/postgres`);
    expect((await documentRecordsFor(getDatabase).listDocuments("nobody", { limit: 5 })).documents).toEqual([]);
    await opened.close();
  });

  it("lets instances that start together migrate a fresh database together: every one succeeds, migrations apply once", async () => {
    const server = await startPostgresServer(RACE_PORT);
    servers.push(server);
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    try {
      // Drizzle's migrator alone failed about half of such races (duplicate type or relation); 6 rounds of 3.
      for (let round = 0; round < 6; round++) {
        await admin.query(`create database race_${round}`);
        const url = server.url.replace(/\/postgres$/, `/race_${round}`);
        const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ url, dir: "unused" })));
        await Promise.all(instances.map((instance) => instance.close()));
        const check = new pg.Client({ connectionString: url });
        await check.connect();
        const applied = await check.query("select count(*)::int as n from drizzle.__drizzle_migrations");
        const tables = await check.query("select count(*)::int as n from information_schema.tables where table_schema = 'public'");
        await check.end();
        expect(applied.rows[0].n).toBe(committedMigrations);
        // documents, document_events, users, operator_access_log, erasure_ledger.
        expect(tables.rows[0].n).toBe(5);
      }
    } finally {
      await admin.end();
    }
  });
});
