/**
 * The document records' cost, on the embedded database (PGlite) and on PostgreSQL, in one run. Each backend gets a
 * table of 200,000 documents (and one event each), 10,000 of them the signed-in user's; then one standalone
 * instance (`npm run build` first) serves, and sequential requests time:
 *   - a request without the database (GET /api/sessions: signed in, reads the session, no query) — the baseline;
 *   - the list's first page, a page 5,000 records deep (keyset cursor), a name search and a status filter;
 *   - recording one event (POST /api/documents/{itemId}/events);
 *   - the export of the user's 10,000 documents (30,000 events) as JSON and as CSV, the slowest request answered
 *     while one export runs, and the RSS with 14 exports at once (8 JSON, 6 CSV) against the instance idle, on a
 *     fresh instance with the production heap cap (--max-old-space-size=192);
 *   - then 300 of those documents get full audit trails (1,000 events each, the cap: 300,000 more events), and a
 *     fresh capped instance serves 6 exports at once (3 CSV, 3 JSON): time, peak RSS, the slowest /api/health;
 *   - EXPLAIN (ANALYZE) of the export's second batch of documents and of events (keyset queries).
 * Also RSS of each instance after start and after the runs, and the first start with an empty DATABASE_DIR (from
 * the build's seed) against a start on PostgreSQL. Every figure is printed with its ratio to the baseline. Then the
 * operator's search across users at 100,000 documents and 1,000 users, at the repository (search.ts).
 *
 *   npm run bench:documents                   # 300 timed requests per figure
 *   npm run bench:documents -- --requests 100
 *   npm run bench:documents -- --search-only  # the operator's search alone: no build, no app, no sandbox
 *
 * Ports (4710–4719, this area's): sandbox 4713–4715, PostgreSQL 4716 (4718 for the search's), the app 4717.
 * BENCH_DOCUMENTS_PORT_BASE moves them all (e.g. 8210 → 8213–8218) on a machine where others use these.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { startSandbox } from "../../sandbox/index";
import { startProcess, waitForHttp, type RunningProcess } from "../../scripts/lib/child-process";
import { startPostgresServer } from "../../scripts/lib/postgres-server";
import { signInTokens, storedSessionCookies } from "../load/sessions";
import { percentile } from "../load/stats";
import { openDatabase, queryRows } from "@/lib/db/client";
import { userKeyFor } from "@/lib/auth/user-key";
import { DEFAULT_HEAP_CAP_MIB } from "../../scripts/lib/heap-cap";
import { UNLIMITED_BUDGETS } from "../../scripts/lib/unlimited-budgets";
import { exportPlans } from "./export-plans";
import { benchSearch, printSearchTable } from "./search";

const PORT_BASE = Number(process.env.BENCH_DOCUMENTS_PORT_BASE ?? 4710);
const SANDBOX_PORTS = { authPort: PORT_BASE + 3, apiPort: PORT_BASE + 4, blobPort: PORT_BASE + 5 };
const POSTGRES_PORT = PORT_BASE + 6;
const APP_PORT = PORT_BASE + 7;
const SEARCH_POSTGRES_PORT = PORT_BASE + 8;
const TOTAL_DOCUMENTS = 200_000;
const USER_DOCUMENTS = 10_000;
const OTHER_USERS = 1_900;
const requestsArg = process.argv.indexOf("--requests");
const REQUESTS = requestsArg > 0 ? Number(process.argv[requestsArg + 1]) : 300;
const WARMUP = 20;

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

/** The operator's search on both backends (search.ts); PostgreSQL in a server of its own, stopped after. */
async function runSearchBench(runs: number): Promise<void> {
  const lite = await benchSearch("PGlite", { runs });
  const server = await startPostgresServer(SEARCH_POSTGRES_PORT);
  try {
    printSearchTable([lite, await benchSearch("PostgreSQL", { url: server.url, runs })], runs);
  } finally {
    await server.stop();
  }
}

if (process.argv.includes("--search-only")) {
  await runSearchBench(REQUESTS);
  process.exit(0);
}

function procStatusMiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

/** The standalone server forks nothing, so its pid is the server's (see scripts/lib/standalone-app.ts). */
async function startApp(env: Record<string, string>, heapCapMiB?: number): Promise<{ app: RunningProcess; readyMs: number }> {
  const started = performance.now();
  const heapCap = heapCapMiB ? [`--max-old-space-size=${heapCapMiB}`] : [];
  const app = startProcess("app", process.execPath, [...heapCap, path.resolve(".next/standalone/server.js")], {
    cwd: path.resolve(".next/standalone"),
    // No readiness delay on SIGTERM: nothing balances this instance, and each stop would wait 5 s.
    env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(APP_PORT), HOSTNAME: "127.0.0.1", LOG_LEVEL: "warn", SHUTDOWN_READINESS_DELAY_MS: "0", ...env },
    log: (line) => (/"level":(50|60)/.test(line) ? console.error(line) : undefined),
  });
  await waitForHttp(`http://127.0.0.1:${APP_PORT}/api/health`, 180_000, app.child, (status) => status === 200);
  return { app, readyMs: performance.now() - started };
}

type Timing = { p50: number; p99: number; errors: number };

async function time(label: string, cookie: string, request: (i: number) => { path: string; init?: RequestInit }): Promise<Timing> {
  const latencies: number[] = [];
  let errors = 0;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const { path: p, init } = request(i);
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${APP_PORT}${p}`, { ...init, headers: { cookie, ...(init?.headers ?? {}) } });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (!res.ok) errors += 1;
    if (i >= WARMUP) latencies.push(ms);
  }
  latencies.sort((a, b) => a - b);
  const result = { p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
  console.log(`  ${label}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms${errors ? `, ${errors} errors` : ""}`);
  return result;
}

/**
 * 200,000 documents, one "created" event each; `userKey` owns 10,000, the rest are spread over 1,900 users. The
 * user's documents also get "upload_started" and "uploaded" events: 30,000 in their export.
 */
const SEED_STATEMENTS = (userKey: string) => [
  sql`
    insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at)
    select case when g <= ${sql.raw(String(USER_DOCUMENTS))} then ${userKey} else 'bench-user-' || (g % ${sql.raw(String(OTHER_USERS))}) end,
           md5('item' || g)::uuid::text, md5('file' || g)::uuid::text, 0, 'documents',
           (array['Contract','Invoice','Lease','Offer','Policy'])[1 + g % 5] || ' ' || g,
           (array['contract','invoice','agreement','offer','policy'])[1 + g % 5],
           1000 + g, md5('x' || g), (array['uploaded','uploaded','uploaded','failed','created'])[1 + g % 5],
           timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01' + g * interval '1 second'
    from generate_series(1, ${sql.raw(String(TOTAL_DOCUMENTS))}) g`,
  sql`
    insert into document_events (user_key, item_id, event_id, type, at)
    select user_key, item_id, md5('event' || item_id)::uuid, 'created', created_at from documents`,
  sql`
    insert into document_events (user_key, item_id, event_id, type, at, request_id, device, details)
    select user_key, item_id, md5(t || item_id)::uuid, t, created_at + i * interval '1 second', 'req-' || item_id, 'Chrome 131 on Linux',
           case t when 'uploaded' then jsonb_build_object('mode', 'single', 'bytes', size, 'md5', md5, 'durationMs', 812) else '{}'::jsonb end
    from documents, unnest(array['upload_started', 'uploaded']) with ordinality as e(t, i)
    where user_key = ${userKey}`,
  sql`analyze`,
];

/** Per document of the first 300 of the user's: 997 more events, so that its trail holds 1,000 (the cap). */
const HEAVY_DOCUMENTS = 300;
const HEAVY_STATEMENTS = (userKey: string) => [
  sql`
    insert into document_events (user_key, item_id, event_id, type, at, request_id, device, details)
    select user_key, item_id, md5('heavy' || i || item_id)::uuid, 'resumed', created_at + (2 + i) * interval '1 millisecond', 'req-' || i, 'Chrome 131 on Linux',
           jsonb_build_object('mode', 'blocks', 'bytes', size)
    from (select * from documents where user_key = ${userKey} order by created_at desc limit ${sql.raw(String(HEAVY_DOCUMENTS))}) d, generate_series(1, 997) i`,
  sql`analyze`,
];

/**
 * The plan of the list's first page, as the repository asks for it: an index scan in order, no Sort. Two indexes
 * serve it, documents_list_idx (removed rows left out) and documents_export_idx (with a removed_at filter); the
 * recorded runs show the planner taking documents_export_idx on both databases.
 */
const LIST_PLAN = (userKey: string) => sql`
  explain select * from documents where user_key = ${userKey} and removed_at is null
  order by created_at desc nulls last, item_id desc nulls last limit 51`;

function printPlan(name: string, rows: Record<string, unknown>[]): void {
  console.log(`${name}: plan of the list's first page: ${rows.map((r) => Object.values(r)[0]).join(" / ").replace(/\s+/g, " ")}`);
}

/**
 * Migrates (through the app's own open) and fills the database. PostgreSQL is filled over a plain connection: the
 * app's pool gives up on any query after 5 s, and these take longer.
 */
async function seed(options: { url?: string; dir: string }, userKey: string): Promise<number> {
  const started = performance.now();
  const database = await openDatabase(options);
  try {
    if (options.url) {
      await database.close();
      const client = new pg.Client({ connectionString: options.url });
      await client.connect();
      try {
        const filler = drizzle({ client });
        for (const statement of SEED_STATEMENTS(userKey)) await filler.execute(statement);
        printPlan("PostgreSQL", (await filler.execute(LIST_PLAN(userKey))).rows);
      } finally {
        await client.end();
      }
    } else {
      for (const statement of SEED_STATEMENTS(userKey)) await database.db.execute(statement);
      printPlan("PGlite", await queryRows<Record<string, unknown>>(database.db, LIST_PLAN(userKey)));
    }
  } finally {
    if (!options.url) await database.close();
  }
  return performance.now() - started;
}

/** Runs statements on the backend: over a plain connection for PostgreSQL (the app's pool gives up after 5 s), else the folder's PGlite. */
async function onDatabase<T>(options: { url?: string; dir: string }, work: (execute: (statement: ReturnType<typeof sql>) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
  if (options.url) {
    const client = new pg.Client({ connectionString: options.url });
    await client.connect();
    try {
      const db = drizzle({ client });
      return await work(async (statement) => (await db.execute(statement)).rows);
    } finally {
      await client.end();
    }
  }
  const database = await openDatabase(options);
  try {
    return await work((statement) => queryRows<Record<string, unknown>>(database.db, statement));
  } finally {
    await database.close();
  }
}

type HeavyFigures = { seconds: number; idleRss: number; peakRss: number; healthMaxMs: number; errors: number; mib: number };

/**
 * Resets the process's peak RSS (VmHWM) to its RSS now (`/proc/<pid>/clear_refs` ← 5, Linux ≥ 4.0), so that VmHWM
 * read later is the peak since this call, every page counted, where sampling every 20 ms could miss a short one.
 * False where the kernel or permissions refuse it.
 */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * 6 exports at once (3 CSV, 3 JSON) while /api/health is asked every 100 ms; RSS sampled every 20 ms, and the
 * kernel's own peak (VmHWM, reset just before) where it can be reset: the peak printed is the larger of the two.
 */
async function measureHeavyExports(pid: number, cookie: string): Promise<HeavyFigures> {
  const idleRss = procStatusMiB(pid, "VmRSS");
  const hwmReset = resetPeakRss(pid);
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, procStatusMiB(pid, "VmRSS"))), 20);
  let exporting = true;
  let healthMaxMs = 0;
  const health = (async () => {
    while (exporting) {
      const started = performance.now();
      await (await fetch(`http://127.0.0.1:${APP_PORT}/api/health`)).arrayBuffer();
      healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  const runs = await Promise.all((["csv", "json", "csv", "json", "csv", "json"] as const).map((format) => exportOnce(cookie, format)));
  const seconds = (performance.now() - started) / 1000;
  exporting = false;
  await health;
  clearInterval(sampler);
  const sampledPeak = peakRss;
  const kernelPeak = hwmReset ? procStatusMiB(pid, "VmHWM") : 0;
  peakRss = Math.max(sampledPeak, kernelPeak);
  const errors = runs.filter((r) => !r.ok).length;
  const mib = runs.reduce((sum, r) => sum + r.bytes, 0) / 1024 / 1024;
  console.log(
    `  6 exports at once of full trails: ${seconds.toFixed(1)} s, ${mib.toFixed(0)} MiB in all, RSS idle ${idleRss.toFixed(0)} MiB, peak ${peakRss.toFixed(0)} MiB ` +
      `(sampled every 20 ms ${sampledPeak.toFixed(0)} MiB, ${hwmReset ? `VmHWM since the start ${kernelPeak.toFixed(0)} MiB` : "VmHWM could not be reset"}), /api/health max ${healthMaxMs.toFixed(0)} ms${errors ? `, ${errors} errors` : ""}`,
  );
  return { seconds, idleRss, peakRss, healthMaxMs, errors, mib };
}

type ExportFigures = {
  json: { ms: number; mib: number };
  csv: { ms: number; mib: number };
  /** The slowest GET /api/sessions answered while one JSON export ran (sequential requests). */
  slowestBesideExportMs: number;
  idleRss: number;
  peakRss14: number;
  ms14: number;
  errors14: number;
};

const EXPORT_RUNS = 3;

async function exportOnce(cookie: string, format: "json" | "csv"): Promise<{ ms: number; bytes: number; ok: boolean }> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${APP_PORT}/api/documents/export?format=${format}`, { headers: { cookie } });
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, bytes, ok: res.ok };
}

/** Median of EXPORT_RUNS sequential exports after one warm-up. */
async function timeExport(cookie: string, format: "json" | "csv"): Promise<{ ms: number; mib: number }> {
  await exportOnce(cookie, format);
  const runs: { ms: number; bytes: number }[] = [];
  for (let i = 0; i < EXPORT_RUNS; i++) {
    const run = await exportOnce(cookie, format);
    if (!run.ok) throw new Error(`export ${format} failed`);
    runs.push(run);
  }
  runs.sort((a, b) => a.ms - b.ms);
  const median = runs[Math.floor(runs.length / 2)]!;
  console.log(`  export ${format}: ${median.ms.toFixed(0)} ms (median of ${EXPORT_RUNS}), ${(median.bytes / 1024 / 1024).toFixed(1)} MiB`);
  return { ms: median.ms, mib: median.bytes / 1024 / 1024 };
}

async function measureExports(pid: number, cookie: string): Promise<ExportFigures> {
  const json = await timeExport(cookie, "json");
  const csv = await timeExport(cookie, "csv");
  // Requests one after the other while an export runs: none should wait long behind it (PGlite runs one query at a time).
  const exporting = exportOnce(cookie, "json");
  let done = false;
  void exporting.finally(() => (done = true));
  let slowestBesideExportMs = 0;
  while (!done) {
    const started = performance.now();
    await (await fetch(`http://127.0.0.1:${APP_PORT}/api/sessions`, { headers: { cookie } })).arrayBuffer();
    slowestBesideExportMs = Math.max(slowestBesideExportMs, performance.now() - started);
  }
  await exporting;
  // 14 at once, as the issue's user pressed Export: RSS sampled every 20 ms.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const idleRss = procStatusMiB(pid, "VmRSS");
  let peakRss14 = idleRss;
  const sampler = setInterval(() => (peakRss14 = Math.max(peakRss14, procStatusMiB(pid, "VmRSS"))), 20);
  const started = performance.now();
  const formats = [...Array<"json">(8).fill("json"), ...Array<"csv">(6).fill("csv")];
  const runs = await Promise.all(formats.map((format) => exportOnce(cookie, format)));
  const ms14 = performance.now() - started;
  clearInterval(sampler);
  const errors14 = runs.filter((r) => !r.ok).length;
  console.log(`  14 exports at once: ${ms14.toFixed(0)} ms, RSS idle ${idleRss.toFixed(0)} MiB, peak ${peakRss14.toFixed(0)} MiB${errors14 ? `, ${errors14} errors` : ""}; slowest request beside one export ${slowestBesideExportMs.toFixed(0)} ms`);
  return { json, csv, slowestBesideExportMs, idleRss, peakRss14, ms14, errors14 };
}

type BackendResult = {
  name: string;
  seedMs: number;
  readyMs: number;
  rssAfterStart: number;
  rssAfterRuns: number;
  baseline: Timing;
  firstPage: Timing;
  deepPage: Timing;
  search: Timing;
  filter: Timing;
  record: Timing;
};

const authSecret = randomBytes(32).toString("base64url");
const work = mkdtempSync(path.join(os.tmpdir(), "esign-bench-documents-"));
const sandbox = await startSandbox({ ...SANDBOX_PORTS, accessTokenTtl: 3600 });
const postgres = await startPostgresServer(POSTGRES_PORT);
const loadAverageBefore = os.loadavg();
const results: BackendResult[] = [];
const exportResults: (ExportFigures & { name: string })[] = [];
const heavyResults: (HeavyFigures & { name: string })[] = [];
const firstStarts: { name: string; readyMs: number; peakRss: number; rss: number }[] = [];
try {
  const [tokens] = await signInTokens(sandbox, 1);
  const subject = JSON.parse(Buffer.from(tokens!.id_token.split(".")[1]!, "base64url").toString()).sub as string;
  const userKey = userKeyFor(sandbox.authUrl, subject);
  const appEnv = (database: Record<string, string>) => ({
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    ESIGN_API_URL: `http://127.0.0.1:${SANDBOX_PORTS.apiPort}`,
    ESIGN_STORAGE_ORIGINS: `http://127.0.0.1:${SANDBOX_PORTS.blobPort}`,
    AUTH_SECRET: authSecret,
    AUTH_URL: `http://localhost:${APP_PORT}`,
    SESSION_STORE_DIR: mkdtempSync(path.join(work, "sessions-")),
    // The records' cost, not budgets, is measured here: one user sends hundreds of requests of each kind.
    ...UNLIMITED_BUDGETS,
    ...database,
  });

  const backends: { name: string; database: Record<string, string>; options: { url?: string; dir: string } }[] = [
    { name: "PGlite", database: { DATABASE_DIR: path.join(work, "pglite") }, options: { dir: path.join(work, "pglite") } },
    { name: "PostgreSQL", database: { DATABASE_URL: postgres.url }, options: { url: postgres.url, dir: "unused" } },
  ];
  for (const backend of backends) {
    console.log(`${backend.name}: seeding ${TOTAL_DOCUMENTS} documents (${USER_DOCUMENTS} the user's) …`);
    const seedMs = await seed(backend.options, userKey);
    const env = appEnv(backend.database);
    const [cookie] = await storedSessionCookies([tokens!], env);
    const { app, readyMs } = await startApp(env);
    try {
      const pid = app.child.pid!;
      const rssAfterStart = procStatusMiB(pid, "VmRSS");
      const first = (await (await fetch(`http://127.0.0.1:${APP_PORT}/api/documents?limit=50`, { headers: { cookie: cookie! } })).json()) as { nextCursor: string };
      // The cursor of the row 5,000 deep: the user's rows are g = 1..10,000, newest first. The largest GUID sorts after
      // every item id of that second, as the app's own cursor of that row would (the list refuses a non-GUID id).
      const deepCursor = Buffer.from(JSON.stringify([new Date(Date.UTC(2026, 0, 1) + 5_000 * 1000).toISOString(), "ffffffff-ffff-ffff-ffff-ffffffffffff"])).toString("base64url");
      if (!first.nextCursor) throw new Error("the seeded user's list has no second page");
      const itemId = "1f0e3dad-9990-8c03-0e3b-f5fa4d1e40a9";
      await fetch(`http://127.0.0.1:${APP_PORT}/api/documents/${itemId}/events`, {
        method: "POST",
        headers: { cookie: cookie!, "content-type": "application/json" },
        body: JSON.stringify({ events: [{ id: randomUUID(), type: "created", at: new Date().toISOString(), fileId: randomUUID(), subdocid: 0, name: "Bench", doctype: "contract" }] }),
      });
      console.log(`${backend.name}: ready in ${readyMs.toFixed(0)} ms, RSS ${rssAfterStart.toFixed(0)} MiB`);
      const baseline = await time("baseline GET /api/sessions", cookie!, () => ({ path: "/api/sessions" }));
      const firstPage = await time("list, first page of 50", cookie!, () => ({ path: "/api/documents?limit=50" }));
      const deepPage = await time("list, 50 from 5,000 deep", cookie!, () => ({ path: `/api/documents?limit=50&cursor=${deepCursor}` }));
      const search = await time("list, name search", cookie!, (i) => ({ path: `/api/documents?limit=50&q=${encodeURIComponent(`Lease ${(i % 9) + 1}`)}` }));
      const filter = await time("list, status filter", cookie!, () => ({ path: "/api/documents?limit=50&status=failed" }));
      const record = await time("record one event", cookie!, () => ({
        path: `/api/documents/${itemId}/events`,
        init: {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ events: [{ id: randomUUID(), type: "resumed", at: new Date().toISOString(), mode: "blocks", bytes: 1024 }] }),
        },
      }));
      results.push({ name: backend.name, seedMs, readyMs, rssAfterStart, rssAfterRuns: procStatusMiB(pid, "VmRSS"), baseline, firstPage, deepPage, search, filter, record });
    } finally {
      await app.stop();
    }
    // The exports on a fresh instance with the production heap cap (the Dockerfile's and systemd unit's): without
    // one, V8 leaves garbage uncollected and RSS says more about its heuristics than about the export.
    const capped = await startApp(env, DEFAULT_HEAP_CAP_MIB);
    try {
      console.log(`${backend.name}: exports, on an instance with --max-old-space-size=${DEFAULT_HEAP_CAP_MIB}`);
      exportResults.push({ name: backend.name, ...(await measureExports(capped.app.child.pid!, cookie!)) });
    } finally {
      await capped.app.stop();
    }
    const plans = await onDatabase(backend.options, async (execute) => {
      for (const statement of HEAVY_STATEMENTS(userKey)) await execute(statement);
      return exportPlans(userKey, execute);
    });
    for (const plan of plans) console.log(`${backend.name}: plan of an export batch past the first:\n${plan}`);
    const heavy = await startApp(env, DEFAULT_HEAP_CAP_MIB);
    try {
      console.log(`${backend.name}: ${HEAVY_DOCUMENTS} documents with full trails (1,000 events), on an instance with --max-old-space-size=${DEFAULT_HEAP_CAP_MIB}`);
      heavyResults.push({ name: backend.name, ...(await measureHeavyExports(heavy.app.child.pid!, cookie!)) });
    } finally {
      await heavy.app.stop();
    }
  }

  // First start: an empty PGlite folder (loaded from the build's seed) against PostgreSQL (already migrated above).
  for (const [name, database] of [
    ["PGlite, empty folder", { DATABASE_DIR: path.join(work, "empty", "db") }],
    ["PostgreSQL", { DATABASE_URL: postgres.url }],
  ] as const) {
    const { app, readyMs } = await startApp(appEnv(database));
    const pid = app.child.pid!;
    firstStarts.push({ name, readyMs, peakRss: procStatusMiB(pid, "VmHWM"), rss: procStatusMiB(pid, "VmRSS") });
    await app.stop();
  }
} finally {
  await sandbox.stop();
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
}

const ratio = (value: number, base: number) => `${(value / base).toFixed(1)}×`;
console.log(`\nDocument records: ${REQUESTS} sequential requests per figure after ${WARMUP} warm-up ones; one instance; ${os.cpus().length} CPUs, load average before ${loadAverageBefore.map((l) => l.toFixed(1)).join(" ")}, after ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
console.log("| figure | " + results.map((r) => `${r.name} p50 / p99 (× baseline p50)`).join(" | ") + " |");
console.log("|---|" + results.map(() => "---|").join(""));
for (const [label, key] of [
  ["GET /api/sessions (no database): the baseline", "baseline"],
  ["list, first page of 50", "firstPage"],
  ["list, 50 from 5,000 deep", "deepPage"],
  ["list, name search", "search"],
  ["list, status filter", "filter"],
  ["record one event", "record"],
] as const) {
  console.log(`| ${label} | ` + results.map((r) => `${r[key].p50.toFixed(1)} / ${r[key].p99.toFixed(1)} ms (${ratio(r[key].p50, r.baseline.p50)})${r[key].errors ? `, ${r[key].errors} errors` : ""}`).join(" | ") + " |");
}
console.log("| seeding 200,000 documents + events | " + results.map((r) => `${(r.seedMs / 1000).toFixed(1)} s`).join(" | ") + " |");
console.log("| RSS after start / after the runs | " + results.map((r) => `${r.rssAfterStart.toFixed(0)} / ${r.rssAfterRuns.toFixed(0)} MiB`).join(" | ") + " |");
const postgresRss = results.find((r) => r.name === "PostgreSQL")?.rssAfterRuns;
const pgliteRss = results.find((r) => r.name === "PGlite")?.rssAfterRuns;
if (postgresRss && pgliteRss) console.log(`RSS with PGlite ÷ RSS with DATABASE_URL after the runs: ${ratio(pgliteRss, postgresRss)}`);
console.log(`\nExports of the user's 10,000 documents (30,000 events), instance with --max-old-space-size=${DEFAULT_HEAP_CAP_MIB}:`);
console.log("| figure | " + exportResults.map((r) => r.name).join(" | ") + " |");
console.log("|---|" + exportResults.map(() => "---|").join(""));
console.log("| one export, JSON / CSV (median of 3) | " + exportResults.map((r) => `${(r.json.ms / 1000).toFixed(2)} s (${r.json.mib.toFixed(1)} MiB) / ${(r.csv.ms / 1000).toFixed(2)} s (${r.csv.mib.toFixed(1)} MiB)`).join(" | ") + " |");
console.log("| slowest request answered during one export | " + exportResults.map((r) => `${r.slowestBesideExportMs.toFixed(0)} ms`).join(" | ") + " |");
console.log("| 14 exports at once (8 JSON, 6 CSV): time, RSS idle → peak | " + exportResults.map((r) => `${(r.ms14 / 1000).toFixed(1)} s, ${r.idleRss.toFixed(0)} → ${r.peakRss14.toFixed(0)} MiB (${ratio(r.peakRss14, r.idleRss)})${r.errors14 ? `, ${r.errors14} errors` : ""}`).join(" | ") + " |");
console.log(`\nThe same user after ${HEAVY_DOCUMENTS} of the documents got full trails (1,000 events each; 329,100 events in all), 6 exports at once (3 CSV, 3 JSON), --max-old-space-size=${DEFAULT_HEAP_CAP_MIB}:`);
console.log("| figure | " + heavyResults.map((r) => r.name).join(" | ") + " |");
console.log("|---|" + heavyResults.map(() => "---|").join(""));
console.log("| time for all six, bytes in all | " + heavyResults.map((r) => `${r.seconds.toFixed(1)} s, ${r.mib.toFixed(0)} MiB${r.errors ? `, ${r.errors} errors` : ""}`).join(" | ") + " |");
console.log("| RSS idle → peak (the larger of 20 ms samples and VmHWM reset at the start) | " + heavyResults.map((r) => `${r.idleRss.toFixed(0)} → ${r.peakRss.toFixed(0)} MiB (${ratio(r.peakRss, r.idleRss)})`).join(" | ") + " |");
console.log("| slowest /api/health meanwhile (goal ≤ 2 s) | " + heavyResults.map((r) => `${r.healthMaxMs.toFixed(0)} ms`).join(" | ") + " |");
console.log("\nFirst start (to /api/health 200):");
const pgStart = firstStarts.find((s) => s.name === "PostgreSQL");
for (const s of firstStarts) {
  console.log(`  ${s.name}: ${(s.readyMs / 1000).toFixed(1)} s${pgStart ? ` (${ratio(s.readyMs, pgStart.readyMs)} PostgreSQL's)` : ""}, peak RSS ${s.peakRss.toFixed(0)} MiB, RSS ${s.rss.toFixed(0)} MiB`);
}
await runSearchBench(REQUESTS);
