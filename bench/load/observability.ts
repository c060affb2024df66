/**
 * What metrics and tracing cost per request: two instances of the same build in one run, one with nothing
 * (no METRICS_PORT, no OTEL_EXPORTER_OTLP_ENDPOINT), one with both (its /metrics scraped every second, its spans
 * exported to a small OTLP sink in this process), loaded in turns with the same signed-in sessions on
 * GET /api/account. Goal: the overhead is at most 5 % of p50.
 *
 *   npm run bench:load:observability
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import { startSandbox } from "../../sandbox/index";
import { startApp } from "./app-server";
import { standaloneBuild } from "./builds";
import { runLoad } from "./load";
import { signInTokens, storedSessionCookies } from "./sessions";
import { summarize, type PhaseResult, type PhaseSummary } from "./stats";
import { UNLIMITED_BUDGETS } from "../../scripts/lib/unlimited-budgets";

const SANDBOX_PORTS = { authPort: 4500, apiPort: 4501, blobPort: 4502 };
const OTLP_PORT = 4503;
const OFF_PORT = 3500;
const ON_PORT = 3502;
const METRICS_PORT = 13502;
const SIZES = [1, 10];
// Alternating short phases, so a change in the machine's load hits both configurations alike.
const ROUNDS = 4;
const PHASE_MS = 4_000;
const WARM_UP_MS = 1_000;
const MAX_REQUESTS_PER_PHASE = 200_000;

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

standaloneBuild(process.cwd());
const authSecret = randomBytes(32).toString("base64url");

let spansReceived = 0;
const sink = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    spansReceived += (text.match(/"spanId"/g) ?? []).length;
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
await new Promise<void>((resolve) => sink.listen(OTLP_PORT, "127.0.0.1", resolve));

const sandbox = await startSandbox({ ...SANDBOX_PORTS, accessTokenTtl: 3600 });
const storeDirs = [0, 1].map(() => mkdtempSync(`${os.tmpdir()}/esign-bench-observability-`));
const rows: { n: number; off: PhaseSummary; on: PhaseSummary }[] = [];
let scrapes = 0;
try {
  const tokens = await signInTokens(sandbox, Math.max(...SIZES));
  const env = (port: number) => ({
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    ESIGN_API_URL: `http://127.0.0.1:${SANDBOX_PORTS.apiPort}`,
    AUTH_SECRET: authSecret,
    AUTH_URL: `http://localhost:${port}`,
    // Each instance its own embedded session store, with the same sessions written in before it starts.
    SESSION_STORE_DIR: storeDirs[port === OFF_PORT ? 0 : 1]!,
    // Load, not budgets, is measured here: one session sends thousands of requests.
    ...UNLIMITED_BUDGETS,
  });
  const offEnv = { ...env(OFF_PORT), METRICS_PORT: "", OTEL_EXPORTER_OTLP_ENDPOINT: "" };
  const onEnv = {
    ...env(ON_PORT),
    METRICS_PORT: String(METRICS_PORT),
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${OTLP_PORT}`,
    OTEL_BSP_SCHEDULE_DELAY: "1000",
  };
  const cookiesFor = { off: await storedSessionCookies(tokens, offEnv), on: await storedSessionCookies(tokens, onEnv) };
  const off = await startApp(OFF_PORT, offEnv);
  const on = await startApp(ON_PORT, onEnv);
  const scraper = setInterval(() => {
    fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`).then(
      (res) => res.text().then(() => (scrapes += 1)),
      () => {},
    );
  }, 1_000);
  try {
    for (const n of SIZES) {
      const phase = (name: "off" | "on", url: string, durationMs: number) =>
        runLoad({ url, sessions: cookiesFor[name].slice(0, n).map((cookie) => ({ cookie })), durationMs, maxRequests: MAX_REQUESTS_PER_PHASE });
      const merged = { off: [] as PhaseResult[], on: [] as PhaseResult[] };
      for (let round = 0; round < ROUNDS; round++) {
        // Each configuration goes first in every other round.
        const order = [["off", off], ["on", on]] as const;
        for (const [name, app] of round % 2 ? [...order].reverse() : order) {
          await phase(name, `${app.url}/api/account`, WARM_UP_MS);
          merged[name].push(await phase(name, `${app.url}/api/account`, PHASE_MS));
        }
      }
      const combine = (results: PhaseResult[]): PhaseResult => ({
        requests: results.reduce((sum, r) => sum + r.requests, 0),
        errors: results.reduce((sum, r) => sum + r.errors, 0),
        elapsedMs: results.reduce((sum, r) => sum + r.elapsedMs, 0),
        latenciesMs: results.flatMap((r) => r.latenciesMs),
      });
      rows.push({ n, off: summarize(combine(merged.off)), on: summarize(combine(merged.on)) });
    }
  } finally {
    clearInterval(scraper);
    await Promise.all([off.stop(), on.stop()]);
  }
} finally {
  await sandbox.stop();
  sink.close();
  for (const dir of storeDirs) rmSync(dir, { recursive: true, force: true });
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const signedMs = (v: number) => `${v >= 0 ? "+" : "−"}${ms(Math.abs(v))}`;
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;
console.log(`
Metrics + tracing on vs off: GET /api/account, N sessions, ${ROUNDS} alternating ${PHASE_MS / 1000} s phases per configuration
Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}
"on": /metrics scraped every second (${scrapes} scrapes), ${spansReceived} spans exported to the OTLP sink

| N | configuration | requests | req/s | p50 | p99 | errors |
|---:|---|---:|---:|---:|---:|---:|
${rows
  .flatMap(({ n, off, on }) => [
    `| ${n} | off | ${off.requests} | ${off.rps.toFixed(0)} | ${ms(off.p50)} | ${ms(off.p99)} | ${off.errors} |`,
    `| ${n} | metrics + tracing | ${on.requests} | ${on.rps.toFixed(0)} | ${ms(on.p50)} | ${ms(on.p99)} | ${on.errors} |`,
    `| ${n} | **overhead** | | ${percent(off.rps - on.rps, off.rps)} fewer | **${signedMs(on.p50 - off.p50)} (${percent(on.p50 - off.p50, off.p50)} of p50)** | ${signedMs(on.p99 - off.p99)} | |`,
  ])
  .join("\n")}

Goal: overhead ≤ 5 % of p50.`);
