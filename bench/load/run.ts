/**
 * Load: N concurrent signed-in sessions (distinct cookies) against GET /api/account of three standalone builds
 * running side by side — before = the design with the tokens in the cookie (main at e44ffe4), after = this checkout
 * with the embedded file store and with Redis — beside the same sessions' bearer tokens sent straight to the
 * sandbox's GET /api/getuserinfo. The targets take turns (1 s each) at each N, so a shared machine's drifting load
 * falls on all of them alike. Loopback only; each phase is bounded in time and count.
 *
 *   npm run bench:load                      # builds this checkout if needed, and e44ffe4 once in /tmp (minutes)
 *   npm run bench:load -- --before <dir>    # a checkout of the previous design to use instead (built if needed)
 *   npm run bench:load -- --before none     # this checkout only
 *
 * Ports: sandbox 4500–4502, apps 3500 (before), 3501 (file store), 3502 (Redis), Redis BENCH_REDIS_PORT (4620).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startSandbox } from "../../sandbox/index";
import { startRedisServer } from "../../scripts/lib/redis-server";
import { startStandaloneApp, type StandaloneApp } from "../../scripts/lib/standalone-app";
import { UNLIMITED_BUDGETS } from "../../scripts/lib/unlimited-budgets";
import { builtCheckout, checkoutCommit, standaloneBuild } from "./builds";
import { runLoad } from "./load";
import { signInTokens, storedSessionCookies, tokenCookies } from "./sessions";
import { formatTable, mergePhases, summarize, type PhaseResult, type SizeResult } from "./stats";

const BEFORE_COMMIT = "e44ffe4";
const DEFAULT_BEFORE_DIR = path.join(os.tmpdir(), `esign-before-${BEFORE_COMMIT}`);
const SANDBOX_PORTS = { authPort: 4500, apiPort: 4501, blobPort: 4502 };
const APP_PORTS = { before: 3500, file: 3501, redis: 3502 };
const REDIS_PORT = Number(process.env.BENCH_REDIS_PORT ?? 4620);
// N = 1 first: with one session nothing queues, so its overhead is the app's own cost per request.
const SIZES = [1, 10, 50, 200];
const PHASE_MS = 5_000;
/** Each target's phase is run as this many turns, interleaved with the other targets'. */
const SLICES = 5;
// Lets the server's JIT, connection pools and route modules settle before anything is measured.
const WARM_UP_MS = 1_000;
const MAX_REQUESTS_PER_PHASE = 500_000;

const { values: args } = parseArgs({ options: { before: { type: "string", default: DEFAULT_BEFORE_DIR } } });
const beforeDir = args.before === "none" ? undefined : path.resolve(args.before!);

// Ctrl-C or a kill becomes a normal exit, so the exit hook below still stops the servers.
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

const afterStandalone = standaloneBuild(process.cwd());
const beforeStandalone = beforeDir && (beforeDir === DEFAULT_BEFORE_DIR ? builtCheckout(beforeDir, BEFORE_COMMIT) : standaloneBuild(beforeDir));

const startedAt = new Date();
const loadAtStart = os.loadavg();
// A fresh secret per run: the cookies are only ever read by the apps started below.
const authSecret = randomBytes(32).toString("base64url");
const logDir = mkdtempSync(path.join(os.tmpdir(), "esign-bench-load-"));
const storeDir = path.join(logDir, "sessions");
// An hour outlives the run, so no session is refreshed and every phase measures the same work.
const sandbox = await startSandbox({ ...SANDBOX_PORTS, accessTokenTtl: 3600 });
const redis = await startRedisServer(REDIS_PORT);
children.push(redis);
const apps: { label: string; app: StandaloneApp; cookies: string[] }[] = [];
const results: SizeResult[] = [];
const BEFORE_LABEL = `before (${BEFORE_COMMIT}, tokens in cookie)`;
try {
  const tokens = await signInTokens(sandbox, Math.max(...SIZES));
  const env = {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    // As the app's sandbox default: the loopback address, not "localhost" (resolved per connection).
    ESIGN_API_URL: `http://127.0.0.1:${SANDBOX_PORTS.apiPort}`,
    AUTH_SECRET: authSecret,
    // Load, not budgets, is measured here: one session sends thousands of requests.
    ...UNLIMITED_BUDGETS,
  };
  // Before: the tokens travel in the cookie. After: the cookie leads to a session written into the app's store.
  type Target = { label: string; dir: string; port: number; store: Record<string, string>; cookies?: string[] };
  const targets: Target[] = [
    ...(beforeStandalone ? [{ label: BEFORE_LABEL, dir: beforeStandalone, port: APP_PORTS.before, store: {}, cookies: await tokenCookies(tokens, authSecret) }] : []),
    { label: "after, file store", dir: afterStandalone, port: APP_PORTS.file, store: { SESSION_STORE_DIR: storeDir } },
    { label: "after, Redis", dir: afterStandalone, port: APP_PORTS.redis, store: { REDIS_URL: redis.url } },
  ];
  for (const target of targets) {
    // Sessions first: the file store indexes its directory when the app starts.
    const cookies = target.cookies ?? (await storedSessionCookies(tokens, { ...env, ...target.store }));
    const name = target.label.split(" (")[0]!.replace(/[^a-z]+/gi, "-");
    const app = await startStandaloneApp({
      dir: target.dir,
      port: target.port,
      name,
      logFile: path.join(logDir, `${name}.log`),
      env: { ...env, ...target.store, AUTH_URL: `http://localhost:${target.port}` },
    });
    children.push(app);
    apps.push({ label: target.label, app, cookies });
  }

  const directUrl = `http://127.0.0.1:${SANDBOX_PORTS.apiPort}/api/getuserinfo`;
  const phase = (url: string, headers: Record<string, string>[], durationMs: number) =>
    runLoad({ url, sessions: headers, durationMs, maxRequests: MAX_REQUESTS_PER_PHASE });
  for (const n of SIZES) {
    const loads = [
      { label: "direct", url: directUrl, headers: tokens.slice(0, n).map((t) => ({ authorization: `Bearer ${t.access_token}` })) },
      ...apps.map(({ label, app, cookies }) => ({ label, url: `${app.url}/api/account`, headers: cookies.slice(0, n).map((cookie) => ({ cookie })) })),
    ];
    for (const { url, headers } of loads) await phase(url, headers, WARM_UP_MS);
    // The targets take turns in slices, so the machine's drifting load falls on all of them alike; the order
    // rotates, so no target always follows the direct phase (whose garbage this process then collects).
    const slices = loads.map(() => [] as PhaseResult[]);
    for (let slice = 0; slice < SLICES; slice++) {
      for (let i = 0; i < loads.length; i++) {
        const k = (slice + i) % loads.length;
        slices[k]!.push(await phase(loads[k]!.url, loads[k]!.headers, PHASE_MS / SLICES));
      }
    }
    const [direct, ...measured] = slices.map((parts) => summarize(mergePhases(parts)));
    results.push({ sessions: n, direct: direct!, apps: measured.map((summary, k) => ({ label: apps[k]!.label, summary })), before: BEFORE_LABEL });
    console.log(`N=${n}: ${loads.map((l, k) => `${l.label} ${(k === 0 ? direct! : measured[k - 1]!).rps.toFixed(0)} req/s`).join(", ")}`);
  }
} finally {
  await Promise.all(apps.map(({ app }) => app.stop()));
  await redis.stop();
  await sandbox.stop();
  rmSync(storeDir, { recursive: true, force: true });
}

const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
console.log(`
Load: N sessions, each sending its next request when the last one answered, ${PHASE_MS / 1000} s per target after ${WARM_UP_MS / 1000} s warm-up,
in ${SLICES} turns taken in rotation with the other targets
${startedAt.toISOString()}, Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "unknown"}), load average ${load(loadAtStart)} at start, ${load(os.loadavg())} at end
sandbox in this process; apps = standalone server.js (NODE_ENV=production) on 127.0.0.1; app logs in ${logDir}
  before: ${beforeStandalone ? `${beforeDir} at ${checkoutCommit(beforeDir!)}` : "skipped (--before none)"}
  after:  ${process.cwd()} at ${checkoutCommit(process.cwd())}

${formatTable(results)}

An error is any answer but 200. p50 − before = this build's p50 minus the previous design's at the same N.`);
