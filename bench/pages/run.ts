/**
 * Page weight and speed against Next.js itself: Lighthouse (mobile preset) on the production build against the
 * sandbox, each run of an app page right after a run of a bare Next.js page (bench/pages/bare/: same next, react and
 * tailwindcss), 5 pairs per page and language; each figure as the median of the pairs' ratios or differences,
 * beside its goal. A machine's speed moves both runs of a pair, so the ratios hold where the scores do not.
 *
 *   npm run bench:pages
 *
 * Ports: BENCH_APP_PORT (4250), BENCH_AUTH_PORT (4251), BENCH_API_PORT (4252), BENCH_BLOB_PORT (4253), the bare
 * page BENCH_BARE_PORT (4254). Chrome: CHROME_PATH (default /usr/bin/chromium). Pairs per page: BENCH_RUNS (5); a pair
 * in which Lighthouse could not finish a run is run again, at most 3 times a row.
 * BENCH_PAGES (e.g. "/,/account") and BENCH_LOCALES (e.g. "ja") narrow the run; BENCH_PAGES_SAVE=<dir> keeps
 * every run's report, trace and DevTools log there (`<dir>/<page>-<lang>-<run>.trace.json`, and
 * `<dir>/bare-<page>-<lang>-<run>.…` for the bare run paired with it). The pages are listed in ./pages.ts.
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
import { fetchPageSize, type PageSize } from "./page-size";
import { BARE_JS_KIB, MEASURED_PAGES } from "./pages";
import { buildBareIfNeeded, startBare } from "./bare";
import { runLighthouse } from "./lighthouse";
import { signIn } from "./sign-in";
import { seedPageContent } from "./content-seed";
import { allWithinGoals, compareWithBare, formatTable, GOALS, mainThreadVerdicts, median, summarizeRuns, type Pair, type PageResult } from "./table";
import { envPort } from "../../scripts/lib/env-port";
import { SANDBOX_OPERATOR_EMAIL } from "../../sandbox/users";

const APP_PORT = envPort("BENCH_APP_PORT", 4250);
const SANDBOX_PORTS = { authPort: envPort("BENCH_AUTH_PORT", 4251), apiPort: envPort("BENCH_API_PORT", 4252), blobPort: envPort("BENCH_BLOB_PORT", 4253) };
const BARE_PORT = envPort("BENCH_BARE_PORT", 4254);
// The bare page in the page's language: a Japanese page's first layout loads a CJK font, and so does the bare one's.
const BARE_PATHS: Record<string, string> = { en: "/", ja: "/ja" };
// Five: with three, one row's verdict moved between quiet runs of the same code more than the pages differed
// (docs/page-weight.md, "Reading the table").
const RUNS = envPort("BENCH_RUNS", 5);
// A run Lighthouse cannot finish (NO_NAVSTART) is taken again, so each row rests on RUNS pairs; bounded.
const MAX_RETRIES = 3;
const LOCALES = (process.env.BENCH_LOCALES || "en,ja").split(",");
const ONLY_PAGES = process.env.BENCH_PAGES ? process.env.BENCH_PAGES.split(",") : undefined;
const SAVE_DIR = process.env.BENCH_PAGES_SAVE ? path.resolve(process.env.BENCH_PAGES_SAVE) : undefined;

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

buildIfNeeded();
buildBareIfNeeded();
const appUrl = `http://localhost:${APP_PORT}`;
const sandbox = await startSandbox({
  ...SANDBOX_PORTS,
  // Outlives the run: proxy.ts never refreshes, so every run measures the same work.
  accessTokenTtl: 3600,
  redirectUris: [`${appUrl}/api/auth/callback/esign`],
  corsOrigins: [appUrl],
});
const sessionStoreDir = mkdtempSync(path.join(os.tmpdir(), "esign-bench-pages-sessions-"));
// The run's own database, with the same records every run (./content-seed.ts).
const databaseDir = mkdtempSync(path.join(os.tmpdir(), "esign-bench-pages-db-"));
const results: PageResult[] = [];
const bare = await startBare(BARE_PORT);
let bareSize: PageSize;
try {
  await seedPageContent(databaseDir, sandbox.authUrl);
  bareSize = await fetchPageSize(`${bare.url}/`);
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
    // The sandbox's operator, for the operator pages.
    OPERATOR_EMAILS: SANDBOX_OPERATOR_EMAIL,
    DATABASE_DIR: databaseDir,
  });
  try {
    const signedIn = await signIn(appUrl);
    for (const page of MEASURED_PAGES.filter((p) => !ONLY_PAGES || ONLY_PAGES.includes(p.route))) {
      const url = `${appUrl}${page.path(signedIn)}`;
      for (const locale of LOCALES) {
        // The language as the menu stores it; a fresh Chrome has no time-zone cookie yet, as a first visit.
        const session = page.as === "alice" ? signedIn.cookie : page.as === "operator" ? signedIn.operatorCookie : "";
        const cookie = [session, `${LOCALE_COOKIE}=${locale}`].filter(Boolean).join("; ");
        const size = await fetchPageSize(url, cookie);
        const pairs: Pair[] = [];
        for (let attempt = 1; pairs.length < RUNS && attempt <= RUNS + MAX_RETRIES; attempt++) {
          const name = `${page.route.replace(/[^a-z]+/gi, "-").replace(/^-|-$/g, "") || "landing"}-${locale}-${attempt}`;
          const bareRun = await runLighthouse(`${bare.url}${BARE_PATHS[locale] ?? "/"}`, undefined, SAVE_DIR && path.join(SAVE_DIR, `bare-${name}`));
          const run = await runLighthouse(url, cookie, SAVE_DIR && path.join(SAVE_DIR, name));
          if (bareRun && run) pairs.push({ bare: bareRun, page: run });
          const line = (r: typeof run) =>
            r ? `main thread ${r.mainThreadMs.toFixed(0)} ms (renderer CPU ${r.rendererCpuMs.toFixed(0)} ms), LCP ${(r.lcpMs / 1000).toFixed(2)} s, TBT ${r.tbtMs.toFixed(0)} ms, JS ${r.jsKiB.toFixed(1)} KiB, perf ${r.perf}, a11y ${r.a11y}, bp ${r.bestPractices}, benchmarkIndex ${r.benchmarkIndex.toFixed(0)}` : "failed";
          console.log(`${page.route} ${locale} run ${attempt} (${pairs.length} of ${RUNS} pairs):\n  bare: ${line(bareRun)}\n  page: ${line(run)}`);
        }
        results.push({
          route: page.route,
          locale,
          buildJsKiB: buildJsKiB(page.route),
          size,
          runs: pairs.length,
          medians: summarizeRuns(pairs.map((p) => p.page)),
          bare: summarizeRuns(pairs.map((p) => p.bare)),
          against: compareWithBare(pairs),
        });
      }
    }
  } finally {
    await app.stop();
  }
} finally {
  await bare.stop();
  await sandbox.stop();
  rmSync(sessionStoreDir, { recursive: true, force: true });
  rmSync(databaseDir, { recursive: true, force: true });
}

const verdicts = mainThreadVerdicts(results);
const bareJs = results.flatMap((r) => (r.bare ? [r.bare.jsKiB] : []));
const bareJsMedian = bareJs.length ? median(bareJs) : Number.NaN;
console.log(`
Pages against a bare Next.js page: Lighthouse 12.2.3, mobile preset (simulated throttling), ${RUNS} pairs (bare, then page) per page and language
${new Date().toISOString()}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; app = next start on ${appUrl}, bare page on ${bare.url}

${formatTable(results)}

Each figure: the median over the pairs of the page's ratio to (×) or difference from (+) the bare run just before it;
in brackets the page's and the bare page's medians. main thread = Lighthouse's main-thread work (4× CPU slowdown);
pairs' main thread = the lowest and the highest of the pairs' main-thread ratios (wall-clock time on a shared CPU);
renderer CPU = the thread time of the same tasks, unthrottled, not a goal: the work without the waits for a core;
JS = JavaScript as transferred (gzip body + response headers); build JS = gzip size of the chunks the page's HTML
loads, computed from .next without a browser. elements (RSC KiB) = the elements in the page's HTML and its inline RSC
payload (the bare page: ${bareSize.elements} (${bareSize.rscKiB.toFixed(1)})); what Next.js alone charges for that much content:
npm run bench:pages:content. benchmarkIndex = Lighthouse's measure of the CPU (page / bare; lower = a slower or busier
machine). / and /auth/error signed out; /operator… signed in as the sandbox's operator; the others
signed in as alice.
Bare page's JS: ${bareJsMedian.toFixed(1)} KiB${Math.abs(bareJsMedian - BARE_JS_KIB) > 0.5 ? ` — NOT the ${BARE_JS_KIB} KiB in bench/pages/pages.ts (BARE_JS_KIB, which the page-weight e2e holds the pages to): update it` : ` (BARE_JS_KIB in bench/pages/pages.ts: ${BARE_JS_KIB})`}.
Main-thread work within ${GOALS.mainThreadRatio}× on ${verdicts.met} of ${verdicts.rows} rows; on ${verdicts.straddling} of them the pairs fell on both sides of it.
${allWithinGoals(results) ? "Every page within every goal." : "Some figure misses its goal (✗)."}${SAVE_DIR ? `\nReports and traces: ${SAVE_DIR}` : ""}`);
