/**
 * Refresh storm and read cost of the server-side session store (lib/session/), against a real sandbox, for the
 * embedded file store and for Redis (a redis-server child). Each app instance runs in its own worker thread
 * (instance.ts), so its config, store connection and in-flight refresh map are its own.
 *
 * 1. Read cost: one session whose token is not due, read a few thousand times through the store, beside the
 *    previous design's cost (decrypting a cookie that holds the tokens, next-auth/jwt `decode`).
 * 2. Storm: N requests of one session at once, right after its access token expired, on one instance.
 * 3. Two instances (Redis): the N requests split between two instances; then again with the token endpoint slowed
 *    to just under ESIGN_REQUEST_TIMEOUT_MS, longer than the refresh lock's TTL, so the lock must be renewed.
 *
 *   npm run bench:refresh-storm      (sandbox on 4300–4302, Redis on BENCH_REDIS_PORT, default 4610)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { decode } from "next-auth/jwt";
import { startSandbox } from "../../sandbox/index";
import { startRedisServer } from "../../scripts/lib/redis-server";
import { partnerTokens, type TokenSet } from "../../tests/sandbox/support/oauth";
import { startAppWorker, type AppWorker } from "../lib/app-worker";
import { encodeHandleCookie, encodeTokenCookie, SESSION_COOKIE } from "../lib/session-cookies";
import { percentile } from "../load/stats";
import type { InstanceHandlers, StormRequest } from "./instance";

const PORTS = { authPort: 4300, apiPort: 4301, blobPort: 4302 };
const REDIS_PORT = Number(process.env.BENCH_REDIS_PORT ?? 4610);
const READS = 3_000;
const WARM_UP_READS = 300;
const SIZES = [1, 10, 50];
const TWO_INSTANCE_SIZES = [2, 10, 50];
/** Storms per size with two instances, so the waiting percentiles rest on a few hundred requests. */
const ROUNDS = 5;
const SLOW_SIZES = [10, 50];
const SLOW_ROUNDS = 2;
/** The app's default ESIGN_REQUEST_TIMEOUT_MS; the slow token endpoint answers just inside it. */
const REQUEST_TIMEOUT_MS = 10_000;
const SLOW_TOKEN_MS = REQUEST_TIMEOUT_MS - 500;
const SECRET = "bench-only-secret-0123456789abcdef0123456789";

process.once("SIGINT", () => process.exit(130));

const startedAt = new Date();
const loadAtStart = os.loadavg();
const sandbox = await startSandbox(PORTS);
const redis = await startRedisServer(REDIS_PORT);
const storeDir = mkdtempSync(path.join(os.tmpdir(), "esign-bench-sessions-"));
const workers: AppWorker<InstanceHandlers>[] = [];

const appEnv = (store: Record<string, string>) => ({
  PATH: process.env.PATH,
  AUTH_SECRET: SECRET,
  ESIGN_USE_SANDBOX: "true",
  ESIGN_AUTH_URL: sandbox.authUrl,
  ESIGN_API_URL: `http://127.0.0.1:${PORTS.apiPort}`,
  ESIGN_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  LOG_LEVEL: "warn",
  ...store,
});
const STORES = { file: { SESSION_STORE_DIR: storeDir }, redis: { REDIS_URL: redis.url } };

function instance(store: keyof typeof STORES): AppWorker<InstanceHandlers> {
  const worker = startAppWorker<InstanceHandlers>(new URL("./instance.ts", import.meta.url), appEnv(STORES[store]));
  workers.push(worker);
  return worker;
}

type Stats = { grants: { refresh_token: number }; tokenErrors: Record<string, number>; refreshReuse: number };
const admin = (route: string, body?: unknown) =>
  fetch(`${sandbox.apiUrl}/_sandbox/${route}`, {
    method: body === undefined && route === "stats" ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const resetSandbox = async () => void (await (await admin("reset")).body?.cancel());
const sandboxStats = async () => (await (await admin("stats")).json()) as Stats;

/** Whether the API accepts `accessToken` (reuse detection revokes the whole grant, so a stale token fails here). */
async function accepted(accessToken: string | null): Promise<boolean> {
  if (!accessToken) return false;
  const res = await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  await res.body?.cancel();
  return res.status === 200;
}

const pct = (values: number[], p: number) => percentile([...values].sort((a, b) => a - b), p);
const ms = (v: number, digits = 3) => (Number.isFinite(v) ? `${v.toFixed(digits)} ms` : "—");
const pair = (values: number[], digits = 3) => `${ms(pct(values, 50), digits)} / ${ms(pct(values, 99), digits)}`;

async function timeEach(count: number, operation: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await operation();
    times.push(performance.now() - started);
  }
  return times;
}

/** The previous design's read: decrypting the session cookie (main's lib/auth/session-cookie.ts without its cache). */
async function cookieDecodeCost(tokens: TokenSet) {
  const decodeAll = async (value: string) => {
    await timeEach(WARM_UP_READS, () => decode({ token: value, secret: SECRET, salt: SESSION_COOKIE }));
    return timeEach(READS, () => decode({ token: value, secret: SECRET, salt: SESSION_COOKIE }));
  };
  const tokenCookie = await encodeTokenCookie(tokens, SECRET);
  const handleCookie = await encodeHandleCookie("h".repeat(43), "alice", SECRET);
  return { tokenCookie: { bytes: tokenCookie.length, ms: await decodeAll(tokenCookie) }, handleCookie: { bytes: handleCookie.length, ms: await decodeAll(handleCookie) } };
}

/** One storm of `n` requests, split over `instances` (request i goes to instance i mod count). */
async function storm(instances: AppWorker<InstanceHandlers>[], n: number, slowTokenMs?: number) {
  const tokens = await partnerTokens(sandbox);
  const handle = await instances[0]!.call("create", { tokens, accessTokenExpiresAt: Math.floor(Date.now() / 1000) - 1 });
  await resetSandbox();
  if (slowTokenMs) await (await admin("faults", { target: "token", grantType: "refresh_token", delayMs: slowTokenMs })).body?.cancel();
  const started = performance.now();
  const shares = instances.map((_, k) => Math.floor(n / instances.length) + (k < n % instances.length ? 1 : 0));
  const results = await Promise.all(instances.map((worker, k) => worker.call("storm", { handle, n: shares[k]! })));
  const elapsedMs = performance.now() - started;
  const requests = results.flatMap((r) => r.requests);
  const ok = await Promise.all(requests.map((r) => accepted(r.accessToken)));
  const s = await sandboxStats();
  const calls = s.grants.refresh_token + Object.values(s.tokenErrors).reduce((a, b) => a + b, 0);
  // The instance that made the token call, and the others, whose requests waited on the store.
  const refresher = results.findIndex((r) => r.tokenCalls > 0);
  const waited = (r: { requests: StormRequest[] }, k: number) => (k === refresher ? [] : r.requests.map((q) => q.ms));
  return {
    calls,
    failures: ok.filter((v) => !v).length,
    reuse: s.refreshReuse,
    elapsedMs,
    refresherMs: refresher >= 0 ? results[refresher]!.requests.map((q) => q.ms) : [],
    otherMs: results.flatMap(waited),
  };
}

async function storms(instances: AppWorker<InstanceHandlers>[], n: number, rounds: number, slowTokenMs?: number) {
  const total = { calls: 0, failures: 0, reuse: 0, requests: 0, refresherMs: [] as number[], otherMs: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    const r = await storm(instances, n, slowTokenMs);
    total.calls += r.calls;
    total.failures += r.failures;
    total.reuse += r.reuse;
    total.requests += n;
    total.refresherMs.push(...r.refresherMs);
    total.otherMs.push(...r.otherMs);
  }
  return total;
}

const readRows: string[] = [];
const stormRows: string[] = [];
const twoRows: string[] = [];
const slowRows: string[] = [];
const row = (cells: (string | number)[], widths: number[]) => cells.map((c, i) => String(c).padStart(widths[i]!)).join(" │ ");
const READ_W = [44, 24];
const STORM_W = [6, 3, 5, 8, 5, 12];
const TWO_W = [3, 7, 9, 5, 24, 24];
const resolveP50: Record<string, number> = {};
try {
  const tokens = await partnerTokens(sandbox);
  const before = await cookieDecodeCost(tokens);
  readRows.push(row([`before: decode cookie with tokens (${before.tokenCookie.bytes} B)`, pair(before.tokenCookie.ms)], READ_W));
  readRows.push(row([`after: decode cookie with handle (${before.handleCookie.bytes} B)`, pair(before.handleCookie.ms)], READ_W));

  for (const store of ["file", "redis"] as const) {
    const one = instance(store);
    // The instance's first refresh also fetches discovery and the JWKS: keep that out of the storms' figures.
    await storm([one], 1);
    const cost = await one.call("readCost", { tokens, reads: READS, warmUp: WARM_UP_READS });
    resolveP50[store] = pct(cost.resolved, 50);
    readRows.push(row([`after, ${store}: readSession`, pair(cost.read)], READ_W));
    readRows.push(row([`after, ${store}: resolveSession (token not due)`, pair(cost.resolved)], READ_W));
    readRows.push(row([`after, ${store}: readSession + touch (${cost.touched.length})`, pair(cost.touched)], READ_W));
    for (const n of SIZES) {
      const r = await storms([one], n, 1);
      stormRows.push(row([store, n, r.calls, r.failures, r.reuse, ms(r.refresherMs.length ? Math.max(...r.refresherMs) : Number.NaN, 0)], STORM_W));
    }
    await one.stop();
  }

  const pairOfInstances = [instance("redis"), instance("redis")];
  for (const worker of pairOfInstances) await storm([worker], 1);
  for (const n of TWO_INSTANCE_SIZES) {
    const r = await storms(pairOfInstances, n, ROUNDS);
    twoRows.push(row([n, `${r.calls}/${ROUNDS}`, `${r.failures}/${r.requests}`, r.reuse, pair(r.refresherMs, 1), pair(r.otherMs, 1)], TWO_W));
  }
  for (const n of SLOW_SIZES) {
    const r = await storms(pairOfInstances, n, SLOW_ROUNDS, SLOW_TOKEN_MS);
    slowRows.push(row([n, `${r.calls}/${SLOW_ROUNDS}`, `${r.failures}/${r.requests}`, r.reuse, pair(r.refresherMs, 0), pair(r.otherMs, 0)], TWO_W));
  }
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  await sandbox.stop();
  await redis.stop();
  rmSync(storeDir, { recursive: true, force: true });
}

const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
console.log(`
bench:refresh-storm — ${startedAt.toISOString()}, Node ${process.version}, ${os.cpus().length} CPUs, load average ${load(loadAtStart)} at start, ${load(os.loadavg())} at end

Read cost per request: ${READS} sequential reads each after ${WARM_UP_READS} warm-up (p50 / p99)
${"".padStart(READ_W[0]!)} │ ${"p50 / p99".padStart(READ_W[1]!)}
${"─".repeat(READ_W[0]! + 1)}┼${"─".repeat(READ_W[1]! + 1)}
${readRows.join("\n")}
  before = main at e44ffe4: the tokens in the cookie, decrypted per request without its 60 s decode cache (a
  cache hit costs a Map lookup; wt-17 keeps that cache, now for the handle cookie). after = the cookie's handle
  leads to the store: readSession = store read + unseal; resolveSession = what proxy.ts and route handlers call
  (+ refreshIfDue); + touch = a read that also writes the last-seen time (at most once a minute per session).
  Added per API request with the cookie cache hit: proxy.ts and the route handler behind it each read the
  session (the route without the refresh check), i.e. about 2 × resolveSession p50 = file ${ms(2 * resolveP50.file!)}, Redis ${ms(2 * resolveP50.redis!)} (goal ≤ 1 ms p50).

Storm: N parallel requests of one session right after its access token expired, one instance
 store │   N │ calls │ failures │ reuse │ refresh took
───────┼─────┼───────┼──────────┼───────┼─────────────
${stormRows.join("\n")}

Two instances (Redis, each in its own worker thread): N requests split between them, ${ROUNDS} storms per N
  N │   calls │ failures │ reuse │ refreshing inst. p50/p99 │ other inst. p50 / p99
────┼─────────┼──────────┼───────┼──────────────────────────┼──────────────────────────
${twoRows.join("\n")}

Same, token endpoint slowed to ${SLOW_TOKEN_MS} ms (ESIGN_REQUEST_TIMEOUT_MS ${REQUEST_TIMEOUT_MS}, refresh lock TTL 5 s, renewed), ${SLOW_ROUNDS} storms per N
  N │   calls │ failures │ reuse │ refreshing inst. p50/p99 │ other inst. p50 / p99
────┼─────────┼──────────┼───────┼──────────────────────────┼──────────────────────────
${slowRows.join("\n")}
  calls = token-endpoint calls (one storm needs 1); failure = a request that ended without a token the API
  accepts; reuse = refresh-token reuse events the sandbox detected. Latencies are whole requests (resolveSession):
  the refreshing instance's requests share its one refresh; the other instance's requests wait on the store's
  lock and poll the session every 50 ms until it is fresh.`);
