import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface LighthouseRun {
  perf: number;
  a11y: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** JavaScript as transferred (gzip), KiB. */
  jsKiB: number;
  /** Audits below full marks in the accessibility and best-practices categories. */
  failedAudits: string[];
}

type Lhr = {
  runtimeError?: { code: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; scoreDisplayMode?: string; details?: { items?: { resourceType?: string; transferSize?: number }[] } }>;
};

const CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu";

/**
 * One Lighthouse run (the CLI's default mobile preset: simulated slow 4G and 4× CPU slowdown) on a fresh Chrome.
 * Returns null for a run Lighthouse itself could not finish (e.g. NO_NAVSTART on a loaded machine).
 */
export async function runLighthouse(url: string, cookie?: string): Promise<LighthouseRun | null> {
  const dir = mkdtempSync(join(tmpdir(), "bench-pages-"));
  const output = join(dir, "report.json");
  const args = [
    url,
    "--output=json",
    `--output-path=${output}`,
    "--only-categories=performance,accessibility,best-practices",
    `--chrome-flags=${CHROME_FLAGS}`,
    "--quiet",
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
  ];
  try {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn("node_modules/.bin/lighthouse", args, {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
      });
      child.once("exit", resolve);
    });
    if (code !== 0) return null;
    const lhr = JSON.parse(readFileSync(output, "utf8")) as Lhr;
    if (lhr.runtimeError) {
      console.log(`  ${url}: run dropped (${lhr.runtimeError.code})`);
      return null;
    }
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
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      cls: numeric("cumulative-layout-shift"),
      jsKiB: (scripts?.transferSize ?? 0) / 1024,
      failedAudits,
    };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
