/**
 * Rolling restart under load: two standalone app instances behind nginx (deploy/nginx/esign-partner.conf,
 * TLS on loopback), a bounded closed-loop load of signed-in sessions on GET /api/account, and instance A
 * SIGTERMed mid-run, waited for, and started again. Prints the figures; the goal is 0 failed requests.
 *
 *   npm run build && npm run bench:rolling-restart
 *
 * The instances share their sessions through a redis-server child (REDIS_URL), as several instances must.
 *
 * Ports: BENCH_RR_AUTH_PORT/API/BLOB (sandbox, 4670–4672), BENCH_RR_APP_A/B (4673, 4674),
 * BENCH_RR_HTTPS/HTTP (nginx, 4675, 4676), BENCH_RR_REDIS_PORT (4677). Concurrency BENCH_RR_SESSIONS (8), run
 * length BENCH_RR_SECONDS (24).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSandbox } from "../../sandbox/index";
import { signInTokens, storedSessionCookies } from "../load/sessions";
import { startNginx } from "../../scripts/lib/nginx";
import { startRedisServer } from "../../scripts/lib/redis-server";
import { startStandaloneApp, type StandaloneApp } from "../../scripts/lib/standalone-app";
import { renderNginxSite } from "../../deploy/nginx/render-site";
import { makeSelfSignedCertificate } from "../../deploy/nginx/self-signed";
import { percentile, runClosedLoop } from "./load";
import { UNLIMITED_BUDGETS } from "../../scripts/lib/unlimited-budgets";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PORTS = {
  auth: env("BENCH_RR_AUTH_PORT", 4670),
  api: env("BENCH_RR_API_PORT", 4671),
  blob: env("BENCH_RR_BLOB_PORT", 4672),
  appA: env("BENCH_RR_APP_A_PORT", 4673),
  appB: env("BENCH_RR_APP_B_PORT", 4674),
  https: env("BENCH_RR_HTTPS_PORT", 4675),
  http: env("BENCH_RR_HTTP_PORT", 4676),
  redis: env("BENCH_RR_REDIS_PORT", 4677),
};
const SESSIONS = env("BENCH_RR_SESSIONS", 8);
const RUN_MS = env("BENCH_RR_SECONDS", 24) * 1000;
// A bound on the run whatever the machine's speed.
const MAX_REQUESTS = 200_000;
const HOST = "partner.bench.test";
const PUBLIC_URL = `https://${HOST}:${PORTS.https}`;
// Over https Auth.js names the cookie with the __Secure- prefix, and the name is the encryption salt.
const COOKIE = "__Secure-authjs.session-token";

process.once("SIGINT", () => process.exit(130));

if (!existsSync(".next/standalone/server.js")) {
  console.error("no standalone build: run `npm run build` first");
  process.exit(1);
}

const since = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(2)} s`;
const logDir = mkdtempSync(path.join(tmpdir(), "esign-rolling-"));
const authSecret = randomBytes(32).toString("base64url");
const sandbox = await startSandbox({ authPort: PORTS.auth, apiPort: PORTS.api, blobPort: PORTS.blob, accessTokenTtl: 3600 });
const redis = await startRedisServer(PORTS.redis);
const apps: Record<"A" | "B", StandaloneApp | undefined> = { A: undefined, B: undefined };
let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
let failed = false;
try {
  const appEnv = {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    ESIGN_API_URL: `http://127.0.0.1:${PORTS.api}`,
    AUTH_SECRET: authSecret,
    REDIS_URL: redis.url,
    // Restarts under load, not budgets, are measured here: each session sends hundreds of requests.
    ...UNLIMITED_BUDGETS,
  };
  const startApp = (name: "A" | "B") =>
    startStandaloneApp({
      dir: ".next/standalone",
      port: name === "A" ? PORTS.appA : PORTS.appB,
      name: `app-${name}`,
      logFile: path.join(logDir, `app-${name}.log`),
      env: {
        ...appEnv,
        AUTH_URL: PUBLIC_URL,
        TRUST_PROXY: "true",
        INSTANCE_ID: `app-${name}`,
      },
    });
  [apps.A, apps.B] = await Promise.all([startApp("A"), startApp("B")]);
  const site = renderNginxSite({
    serverName: HOST,
    httpsPort: PORTS.https,
    httpPort: PORTS.http,
    ...makeSelfSignedCertificate(HOST),
    upstreamPorts: [PORTS.appA, PORTS.appB],
  });
  nginx = await startNginx(site, PORTS.https);

  const cookies = await storedSessionCookies(await signInTokens(sandbox, SESSIONS), appEnv, COOKIE);

  let finish!: () => void;
  const until = new Promise<void>((resolve) => (finish = resolve));
  const t0 = performance.now();
  const load = runClosedLoop({ port: PORTS.https, host: HOST, path: "/api/account", cookies, until, maxRequests: MAX_REQUESTS });

  // A third of the way in: SIGTERM A, wait for it to drain and exit, start it again.
  await new Promise((r) => setTimeout(r, RUN_MS / 3));
  const timeline: string[] = [`${since(t0)}  SIGTERM to instance A`];
  const a = apps.A!;
  const stopping = a.stop(30_000);
  const code = await a.exitCode();
  await stopping;
  timeline.push(`${since(t0)}  instance A exited with code ${code}`);
  apps.A = await startApp("A");
  timeline.push(`${since(t0)}  instance A answering /api/health again`);
  const remaining = RUN_MS - (performance.now() - t0);
  await new Promise((r) => setTimeout(r, Math.max(0, remaining)));
  finish();
  const result = await load;

  const perInstance = (["A", "B"] as const).map((name) => {
    const text = readFileSync(path.join(logDir, `app-${name}.log`), "utf8");
    return `${name}: ${text.split("\n").filter((l) => l.includes('"route":"/api/account"')).length}`;
  });
  const sorted = [...result.latenciesMs].sort((x, y) => x - y);
  console.log(`
Rolling restart under load — ${SESSIONS} closed-loop sessions on GET /api/account through nginx (TLS), ${(result.elapsedMs / 1000).toFixed(1)} s
${timeline.map((l) => `  ${l}`).join("\n")}
  requests:        ${result.requests}
  failed:          ${result.failures}
  statuses:        ${JSON.stringify(result.statuses)}
  throughput:      ${(result.requests / (result.elapsedMs / 1000)).toFixed(0)} req/s
  latency (ms):    p50 ${percentile(sorted, 50).toFixed(1)}  p95 ${percentile(sorted, 95).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  max ${sorted.at(-1)?.toFixed(1)}
  served (access lines, A counts both of its runs): ${perInstance.join(", ")}
  instance A exit code after SIGTERM: ${code} (0 = drained in time)
  result: ${result.failures === 0 && code === 0 ? "PASS — 0 failed requests" : "FAIL"}
`);
  failed = result.failures > 0 || code !== 0;
} finally {
  await nginx?.stop();
  await Promise.all([apps.A?.stop(), apps.B?.stop()]);
  await sandbox.stop();
  await redis.stop();
}
process.exit(failed ? 1 : 0);
