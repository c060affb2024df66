import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rendererTime, type TraceEvent } from "./renderer-time";

export interface LighthouseRun {
  perf: number;
  a11y: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Main-thread work during the load (Lighthouse's `mainthread-work-breakdown`, 4× CPU slowdown applied), ms. */
  mainThreadMs: number;
  /** The renderer main thread's CPU time in the same trace, unthrottled, ms (./renderer-time.ts): the work without the waits. */
  rendererCpuMs: number;
  cls: number;
  /** The document's server response time as Lighthouse saw it (unthrottled), ms. */
  ttfbMs: number;
  /** JavaScript as transferred (gzip body + response headers), KiB. */
  jsKiB: number;
  /** Lighthouse's measure of the machine's speed at the time of the run (higher is faster; ~1000+ is a desktop). */
  benchmarkIndex: number;
  /** Audits below full marks in the accessibility and best-practices categories. */
  failedAudits: string[];
}

type DetailsItem = { resourceType?: string; transferSize?: number };
type Lhr = {
  runtimeError?: { code: string };
  environment?: { benchmarkIndex?: number };
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; scoreDisplayMode?: string; details?: { items?: DetailsItem[] } }>;
};

const CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu";

/**
 * One Lighthouse run (the CLI's default mobile preset: simulated slow 4G and 4× CPU slowdown) on a fresh Chrome.
 * With `saveAs`, the report, trace and DevTools log are kept as `<saveAs>.report.json`, `.trace.json`,
 * `.devtoolslog.json`, to open in Chrome's Performance panel (Lighthouse 12.2.3's own LCP-element and render-blocking
 * audits fail on this Chromium's traces, "frame_sequence": the trace shows the paints and tasks). Returns null for a run Lighthouse itself
 * could not finish (e.g. NO_NAVSTART on a loaded machine).
 */
export async function runLighthouse(url: string, cookie?: string, saveAs?: string): Promise<LighthouseRun | null> {
  const dir = mkdtempSync(join(tmpdir(), "bench-pages-"));
  const output = join(dir, "report.json");
  const args = [
    url,
    "--output=json",
    `--output-path=${output}`,
    "--only-categories=performance,accessibility,best-practices",
    `--chrome-flags=${CHROME_FLAGS}`,
    "--quiet",
    // The trace, for the renderer's CPU time; kept only with `saveAs`.
    "--save-assets",
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
  ];
  try {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn("node_modules/.bin/lighthouse", args, {
        stdio: ["ignore", "ignore", "inherit"],
        // TMPDIR: the temporary folders Chromium leaves behind when Lighthouse ends it (~250 a full run) go with `dir`.
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium", TMPDIR: dir },
      });
      child.once("exit", resolve);
    });
    if (code !== 0) return null;
    if (saveAs) {
      mkdirSync(join(saveAs, ".."), { recursive: true });
      copyFileSync(output, `${saveAs}.report.json`);
      for (const asset of ["trace", "devtoolslog"]) {
        const file = join(dir, `report-0.${asset}.json`);
        if (existsSync(file)) copyFileSync(file, `${saveAs}.${asset}.json`);
      }
    }
    const lhr = JSON.parse(readFileSync(output, "utf8")) as Lhr;
    if (lhr.runtimeError) {
      console.log(`  ${url}: run dropped (${lhr.runtimeError.code})`);
      return null;
    }
    const traceFile = join(dir, "report-0.trace.json");
    const trace = existsSync(traceFile) ? (JSON.parse(readFileSync(traceFile, "utf8")) as { traceEvents?: TraceEvent[] }) : {};
    const renderer = rendererTime(trace.traceEvents ?? []);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const scripts = lhr.audits["resource-summary"]?.details?.items?.find((i) => i.resourceType === "script");
    const failedAudits = ["accessibility", "best-practices"].flatMap((category) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .map((ref) => ({ id: ref.id, audit: lhr.audits[ref.id] }))
        .filter(({ audit }) => audit && audit.scoreDisplayMode === "binary" && audit.score !== null && audit.score < 1)
        .map(({ id }) => id),
    );
    return {
      perf: score("performance"),
      a11y: score("accessibility"),
      bestPractices: score("best-practices"),
      fcpMs: numeric("first-contentful-paint"),
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      mainThreadMs: numeric("mainthread-work-breakdown"),
      rendererCpuMs: renderer?.cpuMs ?? Number.NaN,
      cls: numeric("cumulative-layout-shift"),
      ttfbMs: numeric("server-response-time"),
      jsKiB: (scripts?.transferSize ?? 0) / 1024,
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
      failedAudits,
    };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
