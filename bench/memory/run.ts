/**
 * Memory under sustained load, uncapped and at the default heap cap, side by side: one standalone instance at
 * a time on a fresh embedded database (PGlite), 12 signed-in clients in a closed loop (4 on the /account page,
 * 4 on GET /api/account, 4 on the /documents page, which reads the record), for `--minutes` (default 5) each.
 * Prints RSS over time, req/s, p50/p99 and errors per configuration.
 *
 *   npm run bench:memory               # 2 × 5 minutes, plus start-up
 *   npm run bench:memory -- --minutes 1
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSandbox } from "../../sandbox/index";
import { startProcess, waitForHttp } from "../../scripts/lib/child-process";
import { DEFAULT_HEAP_CAP_MIB } from "../../scripts/lib/heap-cap";
import { runLoad } from "../load/load";
import { signInTokens, storedSessionCookies } from "../load/sessions";
import { summarize, type PhaseResult } from "../load/stats";
import { UNLIMITED_BUDGETS } from "../../scripts/lib/unlimited-budgets";

const SANDBOX_PORTS = { authPort: 4510, apiPort: 4511, blobPort: 4512 };
const APP_PORT = 3510;
const CLIENTS = 12;
const ROUTES = ["/account", "/api/account", "/documents"];
const SAMPLE_MS = 5_000;
const minutesArg = process.argv.indexOf("--minutes");
const MINUTES = minutesArg > 0 ? Number(process.argv[minutesArg + 1]) : 5;

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

const mib = (bytes: number) => bytes / 1024 / 1024;
/** Resident set size of a process, from /proc (Linux). */
function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

type Outcome = { label: string; summary: ReturnType<typeof summarize>; samples: { second: number; rss: number }[]; idleRss: number };

const authSecret = randomBytes(32).toString("base64url");
const loadAverageBefore = os.loadavg();
const sandbox = await startSandbox({ ...SANDBOX_PORTS, accessTokenTtl: 3600 });
const outcomes: Outcome[] = [];
try {
  const tokens = await signInTokens(sandbox, CLIENTS);
  for (const heapCapMiB of [undefined, DEFAULT_HEAP_CAP_MIB]) {
    const env = {
      ESIGN_USE_SANDBOX: "true",
      ESIGN_AUTH_URL: sandbox.authUrl,
      ESIGN_API_URL: `http://127.0.0.1:${SANDBOX_PORTS.apiPort}`,
      ESIGN_STORAGE_ORIGINS: `http://127.0.0.1:${SANDBOX_PORTS.blobPort}`,
      AUTH_SECRET: authSecret,
      AUTH_URL: `http://localhost:${APP_PORT}`,
      // A fresh embedded session store per run, the sessions written in before the instance starts.
      SESSION_STORE_DIR: mkdtempSync(path.join(os.tmpdir(), "esign-bench-memory-")),
      // And a fresh embedded database: its WASM memory is part of the RSS, outside the heap cap.
      DATABASE_DIR: mkdtempSync(path.join(os.tmpdir(), "esign-bench-memory-db-")),
      LOG_LEVEL: "warn",
      // Memory under load, not budgets, is measured here: each client sends thousands of requests.
      ...UNLIMITED_BUDGETS,
    };
    const sessions = (await storedSessionCookies(tokens, env)).map((cookie) => ({ cookie }));
    const app = startProcess("app", process.execPath, [...(heapCapMiB ? [`--max-old-space-size=${heapCapMiB}`] : []), path.resolve(".next/standalone/server.js")], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(APP_PORT), HOSTNAME: "127.0.0.1", ...env },
    });
    try {
      await waitForHttp(`http://127.0.0.1:${APP_PORT}/api/health`, 60_000, app.child, (status) => status === 200);
      const pid = app.child.pid!;
      const idleRss = rssMiB(pid);
      const started = Date.now();
      const samples: { second: number; rss: number }[] = [];
      const sampler = setInterval(() => samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMiB(pid) }), SAMPLE_MS);
      const durationMs = MINUTES * 60_000;
      const share = CLIENTS / ROUTES.length;
      const results: PhaseResult[] = await Promise.all(
        ROUTES.map((route, i) =>
          runLoad({ url: `http://127.0.0.1:${APP_PORT}${route}`, sessions: sessions.slice(i * share, (i + 1) * share), durationMs, maxRequests: 10_000_000 }),
        ),
      );
      clearInterval(sampler);
      samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMiB(pid) });
      const merged: PhaseResult = {
        requests: results.reduce((sum, r) => sum + r.requests, 0),
        errors: results.reduce((sum, r) => sum + r.errors, 0),
        elapsedMs: Math.max(...results.map((r) => r.elapsedMs)),
        latenciesMs: results.flatMap((r) => r.latenciesMs),
      };
      const label = heapCapMiB ? `--max-old-space-size=${heapCapMiB}` : "uncapped";
      outcomes.push({ label, summary: summarize(merged), samples, idleRss });
      console.log(`${label}: done, RSS ${rssMiB(pid).toFixed(0)} MiB`);
    } finally {
      await app.stop();
      rmSync(env.SESSION_STORE_DIR, { recursive: true, force: true });
      rmSync(env.DATABASE_DIR, { recursive: true, force: true });
    }
  }
} finally {
  await sandbox.stop();
}

const at = (o: Outcome, second: number) => o.samples.reduce((best, s) => (Math.abs(s.second - second) < Math.abs(best.second - second) ? s : best)).rss;
const lastPart = (o: Outcome) => o.samples.filter((s) => s.second >= (o.samples.at(-1)!.second * 3) / 5).map((s) => s.rss);
const minuteMarks = Array.from({ length: Math.floor(MINUTES) + 1 }, (_, i) => i * 60).slice(1);
console.log(`
Memory: ${CLIENTS} signed-in clients (${ROUTES.map((route) => `${CLIENTS / ROUTES.length} on ${route}`).join(", ")}), closed loop, ${MINUTES} min per configuration, embedded database
Node ${process.version}, ${os.cpus().length} CPUs, ${mib(os.totalmem()).toFixed(0)} MiB RAM; load average before ${loadAverageBefore.map((l) => l.toFixed(1)).join(" ")}, after ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}

| configuration | req/s | p50 | p99 | errors | RSS idle | ${minuteMarks.map((m) => `RSS ${m / 60} min | `).join("")}RSS peak | last 40 %: min–max |
|---|---:|---:|---:|---:|---:|${minuteMarks.map(() => "---:|").join("")}---:|---:|
${outcomes
  .map((o) => {
    const tail = lastPart(o);
    return `| ${o.label} | ${o.summary.rps.toFixed(0)} | ${o.summary.p50.toFixed(1)} ms | ${o.summary.p99.toFixed(1)} ms | ${o.summary.errors} | ${o.idleRss.toFixed(0)} MiB | ${minuteMarks.map((m) => `${at(o, m).toFixed(0)} | `).join("")}${Math.max(...o.samples.map((s) => s.rss)).toFixed(0)} MiB | ${Math.min(...tail).toFixed(0)}–${Math.max(...tail).toFixed(0)} MiB |`;
  })
  .join("\n")}
${outcomes.length === 2 ? `\nthe cap costs ${(((outcomes[0]!.summary.rps - outcomes[1]!.summary.rps) / outcomes[0]!.summary.rps) * 100).toFixed(1)} % of throughput and saves ${(Math.max(...outcomes[0]!.samples.map((s) => s.rss)) - Math.max(...outcomes[1]!.samples.map((s) => s.rss))).toFixed(0)} MiB of peak RSS` : ""}`);
