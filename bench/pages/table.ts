import type { LighthouseRun } from "./lighthouse";

/** Per figure, the median over a page's runs; the audits, those that failed in any run. */
export type Medians = LighthouseRun;

export interface PageResult {
  route: string;
  locale: string;
  jsBudgetKiB: number;
  buildJsKiB: number;
  runs: number;
  medians: Medians | null;
}

/** Mobile Lighthouse goals (docs/page-weight.md). */
export const GOALS = { perf: 95, a11y: 100, bestPractices: 100 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Medians of each figure over the runs that finished; the audits that failed in any of them. */
export function summarizeRuns(runs: LighthouseRun[]): Medians | null {
  if (runs.length === 0) return null;
  const of = (pick: (r: LighthouseRun) => number) => median(runs.map(pick));
  return {
    perf: of((r) => r.perf),
    a11y: of((r) => r.a11y),
    bestPractices: of((r) => r.bestPractices),
    fcpMs: of((r) => r.fcpMs),
    lcpMs: of((r) => r.lcpMs),
    tbtMs: of((r) => r.tbtMs),
    cls: of((r) => r.cls),
    ttfbMs: of((r) => r.ttfbMs),
    jsKiB: of((r) => r.jsKiB),
    benchmarkIndex: of((r) => r.benchmarkIndex),
    failedAudits: [...new Set(runs.flatMap((r) => r.failedAudits))],
  };
}

const mark = (ok: boolean) => (ok ? "✓" : "✗");

function grid(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

/** One row per page and language, each figure beside its goal; `benchmarkIndex` says how fast the machine was. */
export function formatTable(results: PageResult[]): string {
  const header = ["page", "lang", "perf ≥95", "a11y 100", "BP 100", "FCP s", "LCP s", "TBT ms", "CLS", "TTFB ms", "JS KiB", "build JS KiB", "benchmarkIndex", "runs", "failed audits"];
  const rows = results.map((r) => {
    const m = r.medians;
    const budget = `(≤${r.jsBudgetKiB})`;
    const build = `${r.buildJsKiB.toFixed(1)} ${mark(r.buildJsKiB <= r.jsBudgetKiB)} ${budget}`;
    if (!m) return [r.route, r.locale, "-", "-", "-", "-", "-", "-", "-", "-", "-", build, "-", "0", "all runs failed"];
    return [
      r.route,
      r.locale,
      `${m.perf} ${mark(m.perf >= GOALS.perf)}`,
      `${m.a11y} ${mark(m.a11y >= GOALS.a11y)}`,
      `${m.bestPractices} ${mark(m.bestPractices >= GOALS.bestPractices)}`,
      (m.fcpMs / 1000).toFixed(2),
      (m.lcpMs / 1000).toFixed(2),
      m.tbtMs.toFixed(0),
      m.cls.toFixed(3),
      m.ttfbMs.toFixed(0),
      `${m.jsKiB.toFixed(1)} ${mark(m.jsKiB <= r.jsBudgetKiB)} ${budget}`,
      build,
      m.benchmarkIndex.toFixed(0),
      String(r.runs),
      m.failedAudits.join(", ") || "none",
    ];
  });
  return grid(header, rows);
}

/** True when every page met every goal: Lighthouse's three scores and both JavaScript figures. */
export function allWithinGoals(results: PageResult[]): boolean {
  return results.every(
    (r) =>
      r.buildJsKiB <= r.jsBudgetKiB &&
      r.medians !== null &&
      r.medians.perf >= GOALS.perf &&
      r.medians.a11y >= GOALS.a11y &&
      r.medians.bestPractices >= GOALS.bestPractices &&
      r.medians.jsKiB <= r.jsBudgetKiB,
  );
}
