/**
 * Page weight and speed: Lighthouse (mobile preset, 3 runs per page, medians) on the production build against
 * the sandbox, beside the JavaScript each page loads according to the build itself.
 *
 *   npm run bench:pages
 *
 * Ports: BENCH_APP_PORT (4250), BENCH_AUTH_PORT (4251), BENCH_API_PORT (4252), BENCH_BLOB_PORT (4253).
 * Chrome: CHROME_PATH (default /usr/bin/chromium). Runs per page: BENCH_RUNS (3).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSandbox } from "../../sandbox/index";
import { startApp } from "../load/app-server";
import { buildIfNeeded } from "./build";
import { buildJsKiB } from "./build-js";
import { runLighthouse, type LighthouseRun } from "./lighthouse";
import { signInCookie } from "./sign-in";
import { formatTable, summarizeRuns, type PageResult } from "./table";
import { envPort } from "../../scripts/lib/env-port";

const APP_PORT = envPort("BENCH_APP_PORT", 4250);
const SANDBOX_PORTS = { authPort: envPort("BENCH_AUTH_PORT", 4251), apiPort: envPort("BENCH_API_PORT", 4252), blobPort: envPort("BENCH_BLOB_PORT", 4253) };
const RUNS = envPort("BENCH_RUNS", 3);

/** The pages measured, the session they are seen with, and their JavaScript budget (gzip KiB). */
const PAGES = [
  { route: "/", signedIn: false, jsBudgetKiB: 140 },
  { route: "/account", signedIn: true, jsBudgetKiB: 150 },
  { route: "/documents", signedIn: true, jsBudgetKiB: 150 },
  { route: "/auth/error", signedIn: false, jsBudgetKiB: 150 },
];

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

buildIfNeeded();
const appUrl = `http://localhost:${APP_PORT}`;
const sandbox = await startSandbox({
  ...SANDBOX_PORTS,
  // Outlives the run: proxy.ts never refreshes, so every run measures the same work.
  accessTokenTtl: 3600,
  redirectUris: [`${appUrl}/api/auth/callback/esign`],
  corsOrigins: [appUrl],
});
const sessionStoreDir = mkdtempSync(path.join(os.tmpdir(), "esign-bench-pages-sessions-"));
const results: PageResult[] = [];
try {
  const app = await startApp(APP_PORT, {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    ESIGN_API_URL: `http://127.0.0.1:${SANDBOX_PORTS.apiPort}`,
    ESIGN_STORAGE_ORIGINS: sandbox.blobUrl,
    // A fresh secret per run: the session cookie is only ever read by the app started here.
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    // The OAuth redirect_uri must name the app as "localhost", as the sandbox has it registered.
    AUTH_URL: appUrl,
    // The run's one session goes to a throwaway store, not the checkout's .data/sessions.
    SESSION_STORE_DIR: sessionStoreDir,
  });
  try {
    const cookie = await signInCookie(appUrl);
    for (const page of PAGES) {
      const runs: LighthouseRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        const run = await runLighthouse(`${appUrl}${page.route}`, page.signedIn ? cookie : undefined);
        if (run) runs.push(run);
        console.log(`${page.route} run ${i + 1}/${RUNS}: ${run ? `perf ${run.perf}, a11y ${run.a11y}, bp ${run.bestPractices}` : "failed"}`);
      }
      results.push({ ...page, buildJsKiB: buildJsKiB(page.route), medians: summarizeRuns(runs), runs: runs.length });
    }
  } finally {
    await app.stop();
  }
} finally {
  await sandbox.stop();
  rmSync(sessionStoreDir, { recursive: true, force: true });
}

console.log(`
Pages: Lighthouse 12.2.3, mobile preset (simulated throttling), ${RUNS} runs per page, medians of the runs that finished
Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; app = next start on ${appUrl}

${formatTable(results)}

JS = JavaScript as transferred (gzip) in the Lighthouse run; build JS = gzip size of the chunks the page's HTML loads,
computed from .next without a browser. / and /auth/error signed out; /account and /documents signed in as alice.`);
