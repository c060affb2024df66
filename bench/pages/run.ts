/**
 * Page weight and speed: Lighthouse (mobile preset, 3 runs per page and language, medians) on the production
 * build against the sandbox, beside the JavaScript each page loads according to the build itself, each figure
 * beside its goal.
 *
 *   npm run bench:pages
 *
 * Ports: BENCH_APP_PORT (4250), BENCH_AUTH_PORT (4251), BENCH_API_PORT (4252), BENCH_BLOB_PORT (4253).
 * Chrome: CHROME_PATH (default /usr/bin/chromium). Runs per page: BENCH_RUNS (3).
 * BENCH_PAGES (e.g. "/,/account") and BENCH_LOCALES (e.g. "ja") narrow the run; BENCH_PAGES_SAVE=<dir> keeps
 * every run's report, trace and DevTools log there (`<dir>/<page>-<lang>-<run>.trace.json`).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSandbox } from "../../sandbox/index";
import { startApp } from "../load/app-server";
import { LOCALE_COOKIE } from "../../lib/i18n/locales";
import { buildIfNeeded } from "./build";
import { buildJsKiB } from "./build-js";
import { JS_BUDGET_KIB, MEASURED_PAGES } from "./pages";
import { runLighthouse, type LighthouseRun } from "./lighthouse";
import { signIn } from "./sign-in";
import { allWithinGoals, formatTable, summarizeRuns, type PageResult } from "./table";
import { envPort } from "../../scripts/lib/env-port";

const APP_PORT = envPort("BENCH_APP_PORT", 4250);
const SANDBOX_PORTS = { authPort: envPort("BENCH_AUTH_PORT", 4251), apiPort: envPort("BENCH_API_PORT", 4252), blobPort: envPort("BENCH_BLOB_PORT", 4253) };
const RUNS = envPort("BENCH_RUNS", 3);
const LOCALES = (process.env.BENCH_LOCALES || "en,ja").split(",");
const ONLY_PAGES = process.env.BENCH_PAGES ? process.env.BENCH_PAGES.split(",") : undefined;
const SAVE_DIR = process.env.BENCH_PAGES_SAVE ? path.resolve(process.env.BENCH_PAGES_SAVE) : undefined;

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
    const signedIn = await signIn(appUrl);
    for (const page of MEASURED_PAGES.filter((p) => !ONLY_PAGES || ONLY_PAGES.includes(p.route))) {
      const url = `${appUrl}${page.path(signedIn.itemId)}`;
      for (const locale of LOCALES) {
        // The language as the menu stores it; a fresh Chrome has no time-zone cookie yet, as a first visit.
        const cookie = [page.signedIn ? signedIn.cookie : "", `${LOCALE_COOKIE}=${locale}`].filter(Boolean).join("; ");
        const runs: LighthouseRun[] = [];
        for (let i = 0; i < RUNS; i++) {
          const saveAs = SAVE_DIR && path.join(SAVE_DIR, `${page.route.replace(/[^a-z]+/gi, "-").replace(/^-|-$/g, "") || "landing"}-${locale}-${i + 1}`);
          const run = await runLighthouse(url, cookie, saveAs);
          if (run) runs.push(run);
          console.log(`${page.route} ${locale} run ${i + 1}/${RUNS}: ${run ? `perf ${run.perf}, a11y ${run.a11y}, bp ${run.bestPractices}, LCP ${(run.lcpMs / 1000).toFixed(2)} s, TBT ${run.tbtMs.toFixed(0)} ms, benchmarkIndex ${run.benchmarkIndex.toFixed(0)}` : "failed"}`);
        }
        results.push({ route: page.route, locale, jsBudgetKiB: JS_BUDGET_KIB, buildJsKiB: buildJsKiB(page.route), medians: summarizeRuns(runs), runs: runs.length });
      }
    }
  } finally {
    await app.stop();
  }
} finally {
  await sandbox.stop();
  rmSync(sessionStoreDir, { recursive: true, force: true });
}

console.log(`
Pages: Lighthouse 12.2.3, mobile preset (simulated throttling), ${RUNS} runs per page and language, medians of the runs that finished
${new Date().toISOString()}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; app = next start on ${appUrl}

${formatTable(results)}

JS = JavaScript as transferred (gzip body + response headers) in the Lighthouse run; build JS = gzip size of the chunks
the page's HTML loads, computed from .next without a browser. benchmarkIndex = Lighthouse's measure of the CPU during
the run (lower = a slower or busier machine). / and /auth/error signed out; the others signed in as alice.
${allWithinGoals(results) ? "Every page within every goal." : "Some figure misses its goal (✗)."}${SAVE_DIR ? `\nReports and traces: ${SAVE_DIR}` : ""}`);
