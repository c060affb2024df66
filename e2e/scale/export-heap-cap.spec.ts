import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { test, expect, type Browser } from "@playwright/test";
import pg from "pg";
import { startPostgresServer, type RunningPostgres } from "../../scripts/lib/postgres-server";
import { startAppInstance, startSandboxProcess, type SandboxUrls } from "../../scripts/lib/app-cluster";
import { DEFAULT_HEAP_CAP_MIB } from "../../scripts/lib/heap-cap";
import type { RunningProcess } from "../../scripts/lib/child-process";
import { envPort } from "../../scripts/lib/env-port";
import { signIn, users } from "../fixtures/users";
import { sessionStoreDir } from "../session-store-scan";

/**
 * One user with 300 documents with long audit trails presses Export six times at once (3 CSV, 3 JSON), against one
 * production instance under the production heap cap, on PostgreSQL and on the embedded PGlite. With every trail of
 * a batch read in one query and each CSV batch built as one string, full trails (1,000 events each, the cap:
 * 300,000 events) killed the server (heap out of memory) or cut the files; read in keyset batches and written in
 * ~64 Ki chunks, every file is complete, the server stays up and /api/health answers throughout.
 * In the suite each trail holds 40 events (12,000 in all: still far more than one read's 2,000 (400 on PGlite), so the CSV reads the
 * trails in keyset batches), because full trails take the two tests ~5 minutes on 2 cores, half the suite's budget;
 * `E2E_EXPORT_TRAIL_EVENTS=1000` runs them at the cap (figures in docs/figures.md).
 */
const PORTS = {
  postgres: envPort("EXPORT_E2E_DB_PORT", 4840),
  auth: envPort("EXPORT_E2E_AUTH_PORT", 4841),
  api: envPort("EXPORT_E2E_API_PORT", 4842),
  blob: envPort("EXPORT_E2E_BLOB_PORT", 4843),
  app: envPort("EXPORT_E2E_APP_PORT", 4844),
};
const SEEDED = 300;
/** Each seeded trail's events: at most DOCUMENT_EVENTS_MAX (lib/documents/document-records.ts), the cap. */
const EVENTS_PER_DOCUMENT = Math.min(1_000, Math.max(3, Number(process.env.E2E_EXPORT_TRAIL_EVENTS || 40)));
const CSV_HEADER = "item_id,file_id,subdocid,name,doctype,status,size,md5,created_at,removed_at,event_type,event_at,device,request_id,details";

test.describe.configure({ mode: "serial" });

let sandbox: RunningProcess & { urls: SandboxUrls };
let postgres: RunningPostgres | undefined;
const dirs: string[] = [];
const appUrl = `http://localhost:${PORTS.app}`;

function procStatusMiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

/** The seed, one statement each (PostgreSQL 15 and PGlite alike): documents named in Japanese with a comma and quotes. */
const SEED_SQL = [
  `insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at)
   select d.user_key, md5('item' || g)::uuid::text, md5('file' || g)::uuid::text, 0, 'documents',
          '契約書 ' || g || ', "draft".pdf', 'contract', 2147483648 + g, md5('x' || g), 'uploaded',
          timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01' + g * interval '1 second'
   from (select user_key from documents where item_id = $1) d, generate_series(1, ${SEEDED}) g`,
  // Per document: created, upload_started, 997 resumes, uploaded.
  `insert into document_events (user_key, item_id, event_id, type, at, request_id, device, details)
   select user_key, item_id, md5(i || item_id)::uuid,
          case when i = 0 then 'created' when i = 1 then 'upload_started' when i = ${EVENTS_PER_DOCUMENT - 1} then 'uploaded' else 'resumed' end,
          created_at + i * interval '1 millisecond', 'req-' || i, 'Chrome 131 on Linux',
          case when i = 0 then '{}'::jsonb else jsonb_build_object('mode', 'blocks', 'bytes', size, 'md5', md5, 'durationMs', 812) end
   from documents, generate_series(0, ${EVENTS_PER_DOCUMENT - 1}) i
   where item_id <> $1`,
];

type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Seeds Alice's 300 documents with full trails. The events' indexes and foreign key are taken off for the insert and
 * put back after, from their own definitions (pg_indexes, pg_get_constraintdef): building an index once is far
 * faster than 300,000 random inserts into it, above all in PGlite's WASM.
 */
async function seed(query: Query, itemId: string): Promise<void> {
  const indexes = await query(`select indexname, indexdef from pg_indexes where tablename = 'document_events' and indexname <> 'document_events_pkey'`);
  const keys = await query(`select conname, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'document_events'::regclass and contype = 'f'`);
  for (const key of keys) await query(`alter table document_events drop constraint "${String(key.conname)}"`);
  for (const index of indexes) await query(`drop index "${String(index.indexname)}"`);
  for (const statement of SEED_SQL) await query(statement, statement.includes("$1") ? [itemId] : []);
  for (const index of indexes) await query(String(index.indexdef));
  for (const key of keys) await query(`alter table document_events add constraint "${String(key.conname)}" ${String(key.def)}`);
  await query("analyze");
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sandbox = await startSandboxProcess({ auth: PORTS.auth, api: PORTS.api, blob: PORTS.blob }, { appUrls: [appUrl] });
});

test.afterAll(async () => {
  await sandbox?.stop();
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The app's error lines (level ≥ 50) and V8's fatal ones, kept to say why it died if it does: never printed otherwise. */
const appErrors: string[] = [];

const startApp = (env: Record<string, string>) =>
  startAppInstance({
    log: (line) => {
      if (/"level":(50|60)|heap|FATAL|out of memory/i.test(line)) appErrors.push(line.slice(0, 500));
    },
    port: PORTS.app,
    authUrl: appUrl,
    sandbox: sandbox.urls,
    authSecret: "export-e2e-only-auth-secret-0123456789abcdef0123",
    serverActionsKey: Buffer.alloc(32, 7).toString("base64"),
    heapCapMiB: DEFAULT_HEAP_CAP_MIB,
    env: { SESSION_STORE_DIR: sessionStoreDir(PORTS.app), SHUTDOWN_READINESS_DELAY_MS: "0", LOG_LEVEL: "warn", ...env },
  });

/** Signs Alice in and records one document through the app, so that the database holds her user key. */
async function signInWithOneDocument(browser: Browser, app: { url: string }): Promise<{ cookie: string; itemId: string }> {
  const context = await browser.newContext({ baseURL: app.url });
  try {
    const page = await context.newPage();
    await signIn(page, users.alice);
    const cookie = (await context.cookies(app.url)).map((c) => `${c.name}=${c.value}`).join("; ");
    const itemId = randomUUID();
    const created = await fetch(`${app.url}/api/documents/${itemId}/events`, {
      method: "POST",
      headers: { cookie, origin: app.url, "content-type": "application/json" },
      body: JSON.stringify({ events: [{ id: randomUUID(), type: "created", at: new Date().toISOString(), fileId: randomUUID(), subdocid: 0, name: "First contract", doctype: "contract" }] }),
    });
    expect(created.status).toBe(200);
    return { cookie, itemId };
  } finally {
    await context.close();
  }
}

/**
 * GET /api/health on a connection of its own (`agent: false`): the probe measures the server, not a pooled socket
 * that the server may be closing as it is reused (undici's keep-alive race).
 */
function healthStatus(appUrl: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${appUrl}/api/health`, { agent: false, timeout: 30_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("timeout", () => req.destroy(new Error("no answer in 30 s")));
    req.on("error", reject);
  });
}

/**
 * One download over node:http, which waits for headers as long as it takes: a queued export answers only once one
 * of the user's two slots is free (or with 429 after 30 s in line).
 * The body as text without its byte-order mark (as Response.text() gives it); a cut connection rejects.
 */
function download(url: string, cookie: string): Promise<{ status: number | undefined; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { cookie } }, (res) => {
      res.setEncoding("utf8");
      const parts: string[] = [];
      res.on("data", (part: string) => parts.push(part));
      res.on("end", () => {
        const body = parts.join("");
        const retryAfter = res.headers["retry-after"];
        resolve({ status: res.statusCode, retryAfter, body: body.startsWith("\uFEFF") ? body.slice(1) : body });
      });
      res.on("error", reject);
      res.on("aborted", () => reject(new Error("download cut")));
    });
    req.on("error", reject);
  });
}

/**
 * The same health probe in a process of its own (every 100 ms, a connection each, 30 s timeout), started now and
 * stopped by `stop()`, which resolves its slowest answer, count and failures. The probe in this test's own process
 * also times this process: it reads the six downloads (hundreds of MiB of text) on the same event loop, so its
 * slowest answer can be this process's delay rather than the server's.
 */
function startHealthProbeProcess(appUrl: string): { stop: () => Promise<{ maxMs: number; requests: number; failures: string[] }> } {
  const script = `
    const http = require("node:http");
    let running = true, maxMs = 0, requests = 0; const failures = [];
    process.stdin.on("data", () => { running = false; });
    const once = () => new Promise((resolve) => {
      const req = http.get(process.argv[1] + "/api/health", { agent: false, timeout: 30000 }, (res) => { res.resume(); res.on("end", () => resolve(res.statusCode)); });
      req.on("timeout", () => req.destroy(new Error("no answer in 30 s")));
      req.on("error", (error) => resolve(String(error)));
    });
    (async () => {
      while (running) {
        const started = performance.now();
        const status = await once();
        requests += 1;
        if (status !== 200) failures.push(String(status));
        maxMs = Math.max(maxMs, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      process.stdout.write(JSON.stringify({ maxMs, requests, failures }) + String.fromCharCode(10), () => process.exit(0));
    })();`;
  const child = spawn(process.execPath, ["-e", script, appUrl], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (part: string) => (out += part));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stopped: Promise<{ maxMs: number; requests: number; failures: string[] }> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        child.stdin.end("stop\n");
        await exited;
        return JSON.parse(out) as { maxMs: number; requests: number; failures: string[] };
      })();
      return stopped;
    },
  };
}

/**
 * Six exports at once while /api/health is asked every 100 ms, from this process and from a process of its own;
 * resolves each file's text and the slowest health answers. Each response body is read to its end (a cut
 * connection rejects).
 */
async function exportSixAtOnce(app: { url: string }, cookie: string) {
  let exporting = true;
  let healthMaxMs = 0;
  const healthFailures: string[] = [];
  let healthRequests = 0;
  const health = (async () => {
    while (exporting) {
      const started = performance.now();
      const status = await healthStatus(app.url).catch((error: unknown) => String(error));
      healthRequests += 1;
      if (status !== 200) healthFailures.push(String(status));
      healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const probe = startHealthProbeProcess(app.url);
  const started = performance.now();
  const formats = ["csv", "json", "csv", "json", "csv", "json"] as const;
  try {
    const files = await Promise.all(
      formats.map(async (format) => {
        // As a client that honours Retry-After: an export refused after its wait in line is asked again.
        for (let refusals = 0; ; refusals++) {
          const res = await download(`${app.url}/api/documents/export?format=${format}`, cookie);
          if (res.status !== 429 || refusals === 10) return { format, refusals, ...res };
          expect(Number(res.retryAfter), res.body).toBeGreaterThan(0);
          await new Promise((resolve) => setTimeout(resolve, Number(res.retryAfter) * 1000));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    exporting = false;
    await health;
    return { files, healthMaxMs, healthFailures, healthRequests, probe: await probe.stop(), seconds };
  } finally {
    exporting = false;
    await health;
    await probe.stop().catch(() => undefined);
  }
}

for (const kind of ["PostgreSQL", "PGlite"] as const) {
  test(`6 exports at once (3 CSV, 3 JSON) of ${SEEDED} documents × ${EVENTS_PER_DOCUMENT} events on ${kind} under --max-old-space-size=${DEFAULT_HEAP_CAP_MIB}: every file complete, the server up, /api/health answering`, async ({ browser }) => {
    test.setTimeout(600_000);
    let env: Record<string, string>;
    let dataDir: string | undefined;
    if (kind === "PostgreSQL") {
      postgres = await startPostgresServer(PORTS.postgres);
      env = { DATABASE_URL: postgres.url };
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), "esign-export-e2e-"));
      dirs.push(dir);
      dataDir = path.join(dir, "db");
      env = { DATABASE_URL: "", DATABASE_DIR: dataDir };
    }
    let app = await startApp(env);
    try {
      const { cookie, itemId } = await signInWithOneDocument(browser, app);
      const seedStarted = performance.now();
      if (postgres && kind === "PostgreSQL") {
        const db = new pg.Client({ connectionString: postgres.url });
        await db.connect();
        try {
          await seed(async (text, values) => (await db.query(text, values)).rows, itemId);
        } finally {
          await db.end();
        }
      } else {
        // One process per PGlite folder (the app holds a lock): stop the app, seed the folder, start it again.
        await app.stop();
        const db = await PGlite.create({ dataDir: dataDir! });
        try {
          await seed(async (text, values) => (await db.query<Record<string, unknown>>(text, values)).rows, itemId);
        } finally {
          await db.close();
        }
        app = await startApp(env);
      }
      console.log(`export e2e (${kind}): seeded ${SEEDED * EVENTS_PER_DOCUMENT} events in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

      const pid = app.child.pid!;
      const rssBefore = procStatusMiB(pid, "VmRSS");
      const run = await exportSixAtOnce(app, cookie);
      // Still up, and still the same process: asked before the files are parsed (that takes the test seconds).
      const list = await fetch(`${app.url}/api/documents?limit=5`, { headers: { cookie } }).catch((error: unknown) => error);
      expect(list instanceof Response ? list.status : `${String(list)}; exit ${app.child.exitCode}; ${appErrors.join(" | ")}`).toBe(200);
      expect(app.child.exitCode).toBeNull();
      expect(run.healthFailures).toEqual([]);
      expect(run.healthRequests).toBeGreaterThan(0);
      expect(run.probe.failures).toEqual([]);
      expect(run.probe.requests).toBeGreaterThan(0);
      // Every health request answered 200 (one with no answer in 30 s counts as a failure above). How fast is a figure,
      // printed below and kept in docs/figures.md (goal ≤ 2 s), not an assertion: a 10 s bound failed once at 10.6 s
      // on PGlite in a full 3-worker suite on 2 cores.
      const documents = SEEDED + 1;
      const events = SEEDED * EVENTS_PER_DOCUMENT + 1;
      for (const file of run.files) {
        expect(file.status, `${file.format}: ${file.body.slice(0, 200)}`).toBe(200);
        if (file.format === "json") {
          const parsed = JSON.parse(file.body) as { documents: { itemId: string }[]; events: { itemId: string; type: string }[] };
          expect(parsed.documents).toHaveLength(documents);
          expect(new Set(parsed.documents.map((d) => d.itemId)).size).toBe(documents);
          expect(parsed.events).toHaveLength(events);
          expect(parsed.events.filter((e) => e.type === "uploaded")).toHaveLength(SEEDED);
        } else {
          // download() drops the byte-order mark; the header, one line per event, and the final line break.
          const lines = file.body.split("\r\n");
          expect(lines[0]).toBe(CSV_HEADER);
          expect(lines.at(-1)).toBe("");
          expect(lines.length - 2).toBe(events);
          expect(new Set(lines.slice(1, -1).map((line) => line.slice(0, line.indexOf(",")))).size).toBe(documents);
        }
      }
      expect(app.child.exitCode).toBeNull();
      const sizes = run.files.map((f) => `${f.format} ${(Buffer.byteLength(f.body) / 2 ** 20).toFixed(0)} MiB`).join(", ");
      console.log(
        `export e2e (${kind}): 6 exports complete in ${run.seconds.toFixed(1)} s (${sizes}; ${run.files.reduce((sum, f) => sum + f.refusals, 0)} refused after 30 s in line and asked again); /api/health max ${run.probe.maxMs.toFixed(0)} ms over ${run.probe.requests} requests from a process of its own, ` +
          `${run.healthMaxMs.toFixed(0)} ms over ${run.healthRequests} from the test's process (which reads the downloads); ` +
          `app RSS ${rssBefore.toFixed(0)} MiB before, peak ${procStatusMiB(pid, "VmHWM").toFixed(0)} MiB, ${procStatusMiB(pid, "VmRSS").toFixed(0)} MiB after`,
      );
    } finally {
      await app.stop();
      if (kind === "PostgreSQL") {
        await postgres?.stop();
        postgres = undefined;
      }
    }
  });
}
