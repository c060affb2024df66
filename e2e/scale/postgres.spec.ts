import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import pg from "pg";
import { startPostgresServer, postgresBinary, type RunningPostgres } from "../../scripts/lib/postgres-server";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";
import { startAppInstance, startSandboxProcess, type SandboxUrls } from "../../scripts/lib/app-cluster";
import type { RunningProcess } from "../../scripts/lib/child-process";
import { POSTGRES_DUMP_PREFIX } from "../database-scan";
import { SERVER_LOG_DIR } from "../server-log-scan";
import { stageFile, writeRandomFile, type GeneratedFile } from "../documents/support";
import { signIn, users } from "../fixtures/users";
import { envPort } from "../../scripts/lib/env-port";

/**
 * The document record on a real PostgreSQL (Debian's server binaries, started here) shared by two production
 * instances that start together and so race to migrate it, with their own redis-server and sandbox. Then the
 * database freezes (SIGSTOP) in the middle of an upload: the upload must not notice, and the browser's outbox
 * delivers the record once PostgreSQL carries on, without doubling anything.
 */
const PORTS = {
  postgres: envPort("POSTGRES_E2E_DB_PORT", 4800),
  redis: envPort("POSTGRES_E2E_REDIS_PORT", 4801),
  auth: envPort("POSTGRES_E2E_AUTH_PORT", 4802),
  api: envPort("POSTGRES_E2E_API_PORT", 4803),
  blob: envPort("POSTGRES_E2E_BLOB_PORT", 4804),
  appA: envPort("POSTGRES_E2E_APP_A_PORT", 4805),
  appB: envPort("POSTGRES_E2E_APP_B_PORT", 4806),
};
const AUTH_SECRET = "postgres-e2e-only-auth-secret-0123456789abcdef01";
const SERVER_ACTIONS_KEY = Buffer.alloc(32, 9).toString("base64");
const committedMigrations = (JSON.parse(readFileSync("lib/db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] }).entries.length;

test.describe.configure({ mode: "serial" });

type Instance = { url: string; logs: string[]; proc: RunningProcess & { url: string } };
let postgres: RunningPostgres;
let redis: RunningRedis;
let sandbox: RunningProcess & { urls: SandboxUrls };
let a: Instance;
let b: Instance;
let context: BrowserContext;
let page: Page;
let db: pg.Client;
/** The credentials the create route handed the browser (`sas`, `uploadendpoint`): none may reach the database. */
const uploadCredentials = new Set<string>();

async function startInstance(appPort: number): Promise<Instance> {
  const logs: string[] = [];
  const proc = await startAppInstance({
    port: appPort,
    authUrl: `http://localhost:${appPort}`,
    sandbox: sandbox.urls,
    authSecret: AUTH_SECRET,
    serverActionsKey: SERVER_ACTIONS_KEY,
    redisUrl: redis.url,
    // No balancer in front: stopped at once on SIGTERM, without 5 s of 503 to probes first.
    env: { DATABASE_URL: postgres.url, SHUTDOWN_READINESS_DELAY_MS: "0" },
    log: (line) => logs.push(line),
  });
  return { url: proc.url, logs, proc };
}

/** The documents page with `file` chosen and a type given, ready to upload. */
async function stage(file: GeneratedFile): Promise<void> {
  await stageFile(page, file);
  await page.getByLabel("Document type").fill("contract");
}

/** Uploads what is staged; resolves the new document's itemId once the page says it is uploaded. */
async function send(): Promise<string> {
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 30_000 });
  return (await page.getByTestId("upload-success").locator('[data-field="Item ID"]').textContent())!.trim();
}

/** The audit trail of one document as PostgreSQL holds it: event type → how many. */
async function eventCounts(itemId: string): Promise<Record<string, number>> {
  const { rows } = await db.query<{ type: string; n: string }>("select type, count(*) as n from document_events where item_id = $1 group by type", [itemId]);
  return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000);
  [postgres, redis] = await Promise.all([startPostgresServer(PORTS.postgres), startRedisServer(PORTS.redis)]);
  const appUrls = [PORTS.appA, PORTS.appB].map((p) => `http://localhost:${p}`);
  sandbox = await startSandboxProcess({ auth: PORTS.auth, api: PORTS.api, blob: PORTS.blob }, { appUrls });
  // Together, on a database no one has migrated: each runs the migrations at start-up.
  [a, b] = await Promise.all([startInstance(PORTS.appA), startInstance(PORTS.appB)]);
  db = new pg.Client({ connectionString: postgres.url });
  db.on("error", () => {});
  await db.connect();

  context = await browser.newContext({ baseURL: a.url });
  page = await context.newPage();
  context.on("response", async (res) => {
    if (new URL(res.url()).pathname !== "/api/documents" || res.request().method() !== "POST" || !res.ok()) return;
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    for (const key of ["sas", "uploadendpoint"]) if (typeof body[key] === "string" && body[key]) uploadCredentials.add(body[key]);
  });
  await signIn(page, users.alice);
});

test.afterAll(async () => {
  await context?.close();
  await db?.end().catch(() => {});
  await Promise.all([a?.proc.stop(), b?.proc.stop(), sandbox?.stop(), redis?.stop()]);
  await postgres?.stop();
});

test("two instances migrate one PostgreSQL together and share the record; frozen mid-upload, the upload succeeds and the outbox delivers its record once", async ({}, testInfo) => {
  test.setTimeout(90_000);
  // Both started (each migrated before serving), and the migrations were applied once.
  const applied = await db.query<{ n: string }>("select count(*) as n from drizzle.__drizzle_migrations");
  expect(Number(applied.rows[0]!.n)).toBe(committedMigrations);

  // An upload through A is listed by B (the session cookie is per host, as behind one balancer).
  const run = Date.now().toString(36);
  const shared = await writeRandomFile(testInfo.outputPath(`shared-${run}.pdf`), 64 * 1024);
  await stage(shared);
  const sharedId = await send();
  await page.goto(`${b.url}/documents`);
  const sharedRow = page.getByTestId("document-row").filter({ hasText: shared.name });
  await expect(sharedRow.locator("[data-status]")).toHaveAttribute("data-status", "uploaded");
  expect(await eventCounts(sharedId)).toEqual({ created: 1, upload_started: 1, uploaded: 1 });

  // PostgreSQL freezes with the file chosen: connections stay open and nothing answers.
  const frozenFile = await writeRandomFile(testInfo.outputPath(`frozen-${run}.pdf`), 64 * 1024);
  await stage(frozenFile);
  const reportStatuses: number[] = [];
  page.on("response", (res) => {
    if (/\/api\/documents\/[^/]+\/events$/.test(new URL(res.url()).pathname)) reportStatuses.push(res.status());
  });
  postgres.freeze();
  let frozenId: string;
  try {
    const started = Date.now();
    frozenId = await send();
    const uploadMs = Date.now() - started;
    // The create route waits at most 1.5 s for its record (lib/documents/record-creation.ts), the upload not at all:
    // well under one database query's 5 s timeout on top of that.
    expect(uploadMs, "Upload clicked → uploaded (ms)").toBeLessThan(6_000);
    // The app could not take the reports: the outbox holds them (503 DATABASE_UNAVAILABLE, or no answer yet).
    await expect.poll(() => reportStatuses.filter((s) => s === 503).length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(reportStatuses.filter((s) => s < 300), "no report accepted while PostgreSQL is frozen").toEqual([]);
    console.log(`PostgreSQL frozen: upload succeeded in ${uploadMs} ms; event reports answered ${reportStatuses.join(", ")}`);
  } finally {
    postgres.thaw();
  }

  // PostgreSQL carries on: a page load on the origin that kept the reports (the outbox is per origin, in IndexedDB)
  // delivers them, and the record is complete on the other instance.
  await page.goto(`${a.url}/documents`);
  await expect
    .poll(() => eventCounts(frozenId), { timeout: 30_000, message: "the frozen upload's events, delivered once" })
    .toEqual({ created: 1, upload_started: 1, uploaded: 1 });
  await page.goto(`${b.url}/documents`);
  await expect(page.getByTestId("document-row").filter({ hasText: frozenFile.name }).locator("[data-status]")).toHaveAttribute("data-status", "uploaded");
  const documents = await db.query<{ status: string; md5: string | null; size: string | null }>("select status, md5, size from documents where item_id = $1", [frozenId]);
  expect(documents.rows).toEqual([{ status: "uploaded", md5: frozenFile.md5Hex, size: String(frozenFile.size) }]);
  // Nothing doubled anywhere: one event per reported id, and each document once.
  const doubled = await db.query("select user_key, item_id, event_id from document_events group by 1, 2, 3 having count(*) > 1");
  expect(doubled.rows).toEqual([]);
  expect(Number((await db.query<{ n: string }>("select count(*) as n from documents where item_id in ($1, $2)", [sharedId, frozenId])).rows[0]!.n)).toBe(2);
});

test("PostgreSQL holds no SAS signature, upload URL or token: a pg_dump of the whole database, scanned", async () => {
  const dump = execFileSync(postgresBinary("pg_dump"), ["--no-owner", "--dbname", postgres.url], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(dump).toContain("COPY public.document_events");
  // Kept for the run's teardown, which scans every database the run wrote (e2e/server-log-scan.ts).
  mkdirSync(SERVER_LOG_DIR, { recursive: true });
  writeFileSync(path.join(SERVER_LOG_DIR, `${POSTGRES_DUMP_PREFIX}${PORTS.postgres}.sql`), dump);

  const tokens = ((await (await fetch(`${sandbox.urls.api}/_sandbox/issued-tokens`)).json()) as { tokens: string[] }).tokens;
  expect(tokens.length).toBeGreaterThan(0);
  expect(uploadCredentials.size, "the create route's sas/uploadendpoint values seen").toBeGreaterThan(0);
  for (const secret of [...tokens, ...uploadCredentials, AUTH_SECRET, "partner-app-secret"]) {
    expect(dump.includes(secret), `the dump contains ${secret.slice(0, 12)}…`).toBe(false);
  }
  expect(dump).not.toMatch(/[?&]sig=/);
  console.log(`pg_dump scanned: ${dump.length} characters, ${tokens.length} issued tokens and ${uploadCredentials.size} upload credentials, none found`);
});
