/**
 * The rate limiter's cost, and what a flood does to everyone else. Three parts, in one run:
 *
 * 1. Per request, in this process: `consume` of the app's limiter (lib/rate-limit/rate-limiter.ts) in memory and on a
 *    real redis-server, against an empty async call, in interleaved slices; p50 and p99 of each.
 * 2. `GET /api/account` throughput and p50 of four standalone instances side by side: a checkout without the limiter
 *    (before) and this one (after), each once on the embedded session store (the limiter in memory) and once on
 *    Redis (the limiter in Redis too). Every budget out of reach, so each request is counted and allowed. The targets
 *    take turns in slices, so the shared machine's drifting load falls on all alike; ratios after ÷ before are
 *    printed per store.
 * 3. A flood against the default budgets (after, memory): one user's 1,000 creations 40 at a time, while another user
 *    reads GET /api/account every 250 ms; statuses, creations that reached the sandbox, and the other user's p50/p95 —
 *    beside the same reader's p50/p95 for 10 s just before the flood, on the same instance.
 *
 *   npm run bench:rate-limit -- --before <checkout>   # a built checkout without the limiter (`npm run build` there)
 *   npm run bench:rate-limit -- --before <checkout> --skip-apps   # parts 1 and 3 only
 *
 * Ports (BENCH_RL_*_PORT): sandbox 4880–4882, apps 4883 (before), 4884 (memory), 4885 (Redis), 4886 (flood),
 * redis-server 4887, 4888 (before on Redis).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startSandbox } from "../../sandbox/index";
import { startRedisServer } from "../../scripts/lib/redis-server";
import { startStandaloneApp, type StandaloneApp } from "../../scripts/lib/standalone-app";
import { UNLIMITED_BUDGETS } from "../../scripts/lib/unlimited-budgets";
import { partnerTokens } from "../../tests/sandbox/support/oauth";
import { createRateLimiter } from "../../lib/rate-limit/rate-limiter";
import { LIMIT_NAMES, type Budget, type LimitName } from "../../lib/rate-limit/policies";
import { checkoutCommit } from "../load/builds";
import { runLoad } from "../load/load";
import { storedSessionCookies } from "../load/sessions";
import { mergePhases, percentile, summarize, type PhaseResult, type PhaseSummary } from "../load/stats";
import { createClient } from "redis";

const port = (name: string, fallback: number) => Number(process.env[`BENCH_RL_${name}_PORT`] ?? fallback);
const PORTS = {
  sandbox: { authPort: port("AUTH", 4880), apiPort: port("API", 4881), blobPort: port("BLOB", 4882) },
  before: port("BEFORE", 4883),
  memory: port("MEMORY", 4884),
  redis: port("REDIS_APP", 4885),
  flood: port("FLOOD", 4886),
  redisServer: port("REDIS", 4887),
  beforeRedis: port("BEFORE_REDIS", 4888),
};
const MICRO_CALLS = 20_000;
const MICRO_SLICES = 10;
const SIZES = [1, 10];
// Seconds per target in part 2, taken in one-second turns (BENCH_RL_SECONDS): 6 by default; turns of one target
// against another spread by about ±10 % on this machine, so a 5 % question wants 30 or more.
const SLICES = Number(process.env.BENCH_RL_SECONDS ?? 6);
const PHASE_MS = SLICES * 1_000;
const WARM_UP_MS = 1_000;
const READ_INTERVAL_MS = 250;

const { values: args } = parseArgs({ options: { before: { type: "string" }, "skip-apps": { type: "boolean", default: false } } });
if (!args.before || !existsSync(path.join(args.before, ".next/standalone/server.js"))) {
  console.error("usage: npm run bench:rate-limit -- --before <a built checkout without the limiter, e.g. git archive 48f6843 + npm run build>");
  process.exit(2);
}
const beforeStandalone = path.join(path.resolve(args.before), ".next/standalone");
const afterStandalone = path.resolve(".next/standalone");

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));
const children: { child: { pid?: number } }[] = [];
process.once("exit", () => {
  for (const { child } of children) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

const startedAt = new Date();
const loadAtStart = os.loadavg();
const redis = await startRedisServer(PORTS.redisServer);
children.push(redis);
const f2 = (v: number) => v.toFixed(2);
const f3 = (v: number) => v.toFixed(3);

// 1. The limiter alone.
const unlimited = Object.fromEntries(LIMIT_NAMES.map((name) => [name, { points: 1_000_000_000, durationS: 600 }])) as Record<LimitName, Budget>;
const quiet = { warn: (msg: string) => console.error(msg), info: () => {} };
const redisClient = createClient({ url: redis.url, disableOfflineQueue: true });
redisClient.on("error", () => {});
await redisClient.connect();
const micro: Record<string, (key: string) => Promise<unknown>> = {
  "no limiter (an empty async call)": async () => {},
  memory: ((l) => (key: string) => l.consume("account", key))(createRateLimiter({ budgets: unlimited, log: quiet })),
  Redis: ((l) => (key: string) => l.consume("account", key))(createRateLimiter({ budgets: unlimited, redis: redisClient, log: quiet })),
};
const microTimes = Object.fromEntries(Object.keys(micro).map((k) => [k, [] as number[]]));
for (let slice = 0; slice < MICRO_SLICES; slice++) {
  for (const [label, call] of Object.entries(micro)) {
    for (let i = 0; i < MICRO_CALLS / MICRO_SLICES; i++) {
      const key = `user-${i % 200}`;
      const t0 = performance.now();
      await call(key);
      microTimes[label]!.push(performance.now() - t0);
    }
  }
}
redisClient.destroy();
const microRows = Object.entries(microTimes).map(([label, times]) => {
  const sorted = times.sort((a, b) => a - b);
  return { label, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
});

// 2 and 3. The apps.
const authSecret = randomBytes(32).toString("base64url");
const work = mkdtempSync(path.join(os.tmpdir(), "esign-bench-rate-limit-"));
const sandbox = await startSandbox({ ...PORTS.sandbox, accessTokenTtl: 3600 });
const apps: StandaloneApp[] = [];
const results: { n: number; rows: { label: string; baseline: string; summary: PhaseSummary }[] }[] = [];
type Reads = { requests: number; p50: number; p95: number; statuses: Record<string, number> };
let flood: { created: number; refused: number; other: number; reachedSandbox: number; quiet: Reads; account: Reads; seconds: number } | undefined;
try {
  const aliceTokens = await Promise.all(Array.from({ length: Math.max(...SIZES) }, () => partnerTokens(sandbox)));
  const carolTokens = [await partnerTokens(sandbox, undefined, { email: "carol@example.com", password: "carol-password" })];
  const base = {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    ESIGN_API_URL: `http://127.0.0.1:${PORTS.sandbox.apiPort}`,
    ESIGN_STORAGE_ORIGINS: sandbox.blobUrl,
    AUTH_SECRET: authSecret,
    LOG_LEVEL: "warn",
  };
  // `baseline`: the target each one is compared with (the same session store, without the limiter).
  const targets: { label: string; baseline: string; dir: string; port: number; env: Record<string, string> }[] = [
    { label: "before, file store", baseline: "before, file store", dir: beforeStandalone, port: PORTS.before, env: { SESSION_STORE_DIR: path.join(work, "before") } },
    { label: "after, file store + limiter in memory", baseline: "before, file store", dir: afterStandalone, port: PORTS.memory, env: { SESSION_STORE_DIR: path.join(work, "memory"), ...UNLIMITED_BUDGETS } },
    { label: "before, Redis", baseline: "before, Redis", dir: beforeStandalone, port: PORTS.beforeRedis, env: { REDIS_URL: redis.url } },
    { label: "after, Redis + limiter in Redis", baseline: "before, Redis", dir: afterStandalone, port: PORTS.redis, env: { REDIS_URL: redis.url, ...UNLIMITED_BUDGETS } },
  ];
  const loads: { label: string; baseline: string; url: string; cookies: string[] }[] = [];
  for (const target of args["skip-apps"] ? [] : targets) {
    const env = { ...base, ...target.env, AUTH_URL: `http://localhost:${target.port}`, DATABASE_DIR: path.join(work, `db-${target.port}`) };
    // Sessions first: the file store indexes its directory when the app starts.
    const cookies = await storedSessionCookies(aliceTokens, env);
    const app = await startStandaloneApp({ dir: target.dir, port: target.port, name: `rl-${target.port}`, logFile: path.join(work, `${target.port}.log`), env });
    children.push(app);
    apps.push(app);
    loads.push({ label: target.label, baseline: target.baseline, url: `${app.url}/api/account`, cookies });
  }
  for (const n of args["skip-apps"] ? [] : SIZES) {
    const phase = (l: (typeof loads)[number], ms: number) => runLoad({ url: l.url, sessions: l.cookies.slice(0, n).map((cookie) => ({ cookie })), durationMs: ms, maxRequests: 500_000 });
    for (const l of loads) await phase(l, WARM_UP_MS);
    const parts = loads.map(() => [] as PhaseResult[]);
    for (let slice = 0; slice < SLICES; slice++) {
      for (let i = 0; i < loads.length; i++) {
        const k = (slice + i) % loads.length;
        parts[k]!.push(await phase(loads[k]!, PHASE_MS / SLICES));
      }
    }
    results.push({ n, rows: parts.map((p, k) => ({ label: loads[k]!.label, baseline: loads[k]!.baseline, summary: summarize(mergePhases(p)) })) });
  }
  for (const app of apps.splice(0)) await app.stop();

  // 3. The flood, against the default budgets.
  const floodEnv = { ...base, SESSION_STORE_DIR: path.join(work, "flood"), AUTH_URL: `http://localhost:${PORTS.flood}`, DATABASE_DIR: path.join(work, "db-flood") };
  const [aliceCookie] = await storedSessionCookies([aliceTokens[0]!], floodEnv);
  const [carolCookie] = await storedSessionCookies(carolTokens, floodEnv);
  const floodApp = await startStandaloneApp({ dir: afterStandalone, port: PORTS.flood, name: "rl-flood", logFile: path.join(work, "flood.log"), env: floodEnv });
  children.push(floodApp);
  apps.push(floodApp);
  const documentsAtSandbox = async () =>
    (((await (await fetch(`${sandbox.apiUrl}/_sandbox/stats`)).json()) as { operations: { document: Record<string, number> } }).operations.document["200"] ?? 0);
  const atStart = await documentsAtSandbox();
  const statuses: number[] = [];
  let next = 0;
  const creator = async () => {
    while (next < 1000) {
      next++;
      const res = await fetch(`${floodApp.url}/api/documents`, {
        method: "POST",
        headers: { cookie: aliceCookie!, origin: `http://localhost:${PORTS.flood}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `flood-${next}.pdf`, doctype: "contract" }),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  };
  // The other user's reads, one every 250 ms at most (a person's tabs, well inside their own default budget of 300 per
  // 10 minutes over this run), for as long as `going` says.
  const readWhile = async (going: () => boolean): Promise<Reads> => {
    const times: number[] = [];
    const statuses: Record<string, number> = {};
    while (going()) {
      const t0 = performance.now();
      const res = await fetch(`${floodApp.url}/api/account`, { headers: { cookie: carolCookie! } });
      await res.arrayBuffer();
      const took = performance.now() - t0;
      times.push(took);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (took < READ_INTERVAL_MS) await new Promise((resolve) => setTimeout(resolve, READ_INTERVAL_MS - took));
    }
    const sorted = times.sort((a, b) => a - b);
    return { requests: times.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), statuses };
  };
  const quietUntil = performance.now() + 10_000;
  const quiet = await readWhile(() => performance.now() < quietUntil);
  let flooding = true;
  const t0 = performance.now();
  const reading = readWhile(() => flooding);
  await Promise.all(Array.from({ length: 40 }, creator));
  flooding = false;
  const account = await reading;
  const seconds = (performance.now() - t0) / 1000;
  flood = {
    created: statuses.filter((s) => s === 201).length,
    refused: statuses.filter((s) => s === 429).length,
    other: statuses.filter((s) => s !== 201 && s !== 429).length,
    reachedSandbox: (await documentsAtSandbox()) - atStart,
    quiet,
    account,
    seconds,
  };
} finally {
  await Promise.all(apps.map((app) => app.stop()));
  await sandbox.stop();
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
}

const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
const describeReads = (r: Reads) => `${r.requests} requests, statuses ${JSON.stringify(r.statuses)}, p50 ${f2(r.p50)} ms, p95 ${f2(r.p95)} ms`;
console.log(`
Rate limiter cost — ${startedAt.toISOString()}, Node ${process.version}, ${os.cpus().length} CPUs, load average ${load(loadAtStart)} at start, ${load(os.loadavg())} at end
  before: ${args.before} at ${checkoutCommit(args.before)}; after: this checkout at ${checkoutCommit(process.cwd())}

1. limiter.consume per request, ${MICRO_CALLS} calls each in ${MICRO_SLICES} interleaved slices, 200 keys, in this process:
| store | p50 | p99 | p50 added |
|---|---:|---:|---:|
${microRows.map((r) => `| ${r.label} | ${f3(r.p50)} ms | ${f3(r.p99)} ms | ${f3(r.p50 - microRows[0]!.p50)} ms |`).join("\n")}

2. GET /api/account, N sessions in a closed loop, ${PHASE_MS / 1000} s per target in ${SLICES} interleaved turns (every budget out of reach);
   each "after" against the "before" on the same session store:
| N | target | requests | req/s | p50 | p99 | errors | req/s ÷ before | p50 − before |
|---:|---|---:|---:|---:|---:|---:|---:|---:|
${results
  .flatMap(({ n, rows }) =>
    rows.map(({ label, baseline, summary: s }) => {
      const b = rows.find((r) => r.label === baseline)!.summary;
      return `| ${n} | ${label} | ${s.requests} | ${s.rps.toFixed(0)} | ${f2(s.p50)} ms | ${f2(s.p99)} ms | ${s.errors} | ${f3(s.rps / b.rps)} | ${f2(s.p50 - b.p50)} ms |`;
    }),
  )
  .join("\n")}

3. Flood against the default budgets (after, memory): one user's 1,000 POST /api/documents, 40 at a time, in ${flood ? flood.seconds.toFixed(1) : "?"} s:
   ${flood ? `201: ${flood.created}, 429: ${flood.refused}, other: ${flood.other}; creations that reached the sandbox: ${flood.reachedSandbox}` : "not run"}
   another user's GET /api/account, every 250 ms at most: ${flood ? `for 10 s before the flood ${describeReads(flood.quiet)}; during the flood ${describeReads(flood.account)} (goal p95 ≤ 1000 ms); p95 during ÷ before ${f2(flood.account.p95 / flood.quiet.p95)}` : "not run"}
`);
