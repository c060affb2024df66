import type { LighthouseRun } from "./lighthouse";
import type { PageSize } from "./page-size";

/** Per figure, the median over a page's runs; the audits, those that failed in any run. */
export type Medians = LighthouseRun;

/** One Lighthouse run of an app page and the bare page's run just before it. */
export interface Pair {
  bare: LighthouseRun;
  page: LighthouseRun;
}

/** The page against the bare page: medians over the pairs of each pair's ratio or difference. */
export interface AgainstBare {
  mainThreadRatio: number;
  /**
   * The lowest and the highest of the pairs' main-thread ratios: how far one pair can fall from the median on this
   * machine. Where they lie on both sides of the goal, another run may well give the row the other verdict.
   */
  mainThreadSpread: { low: number; high: number };
  /** Not a goal: says how much of the main-thread ratio is work rather than waiting for a core. */
  rendererCpuRatio: number;
  lcpRatio: number;
  tbtOverMs: number;
  jsOverKiB: number;
}

export interface PageResult {
  route: string;
  locale: string;
  buildJsKiB: number;
  /** The page's elements and RSC payload as the bench's first request got them (content React hydrates). */
  size: PageSize;
  /** Pairs in which both runs finished. */
  runs: number;
  medians: Medians | null;
  bare: Medians | null;
  against: AgainstBare | null;
}

/**
 * Goals against the bare page of the same run (docs/page-weight.md, issue #37): a machine's speed moves both sides
 * of a ratio, so these hold on any machine. Accessibility and best practices stay at 100.
 */
export const GOALS = { mainThreadRatio: 1.3, lcpRatio: 1.25, tbtOverMs: 100, jsOverKiB: 16, a11y: 100, bestPractices: 100 };

export function median(values: number[]): number {
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
    mainThreadMs: of((r) => r.mainThreadMs),
    rendererCpuMs: of((r) => r.rendererCpuMs),
    cls: of((r) => r.cls),
    ttfbMs: of((r) => r.ttfbMs),
    jsKiB: of((r) => r.jsKiB),
    benchmarkIndex: of((r) => r.benchmarkIndex),
    failedAudits: [...new Set(runs.flatMap((r) => r.failedAudits))],
  };
}

/**
 * Each pair's ratio (main-thread work, LCP) or difference (TBT, JS), then the median over the pairs: a pair's two
 * runs were taken seconds apart, on the same machine in the same mood.
 */
export function compareWithBare(pairs: Pair[]): AgainstBare | null {
  if (pairs.length === 0) return null;
  const of = (pick: (p: Pair) => number) => median(pairs.map(pick));
  const mainThread = pairs.map((p) => p.page.mainThreadMs / p.bare.mainThreadMs);
  return {
    mainThreadRatio: median(mainThread),
    mainThreadSpread: { low: Math.min(...mainThread), high: Math.max(...mainThread) },
    rendererCpuRatio: of((p) => p.page.rendererCpuMs / p.bare.rendererCpuMs),
    lcpRatio: of((p) => p.page.lcpMs / p.bare.lcpMs),
    tbtOverMs: of((p) => p.page.tbtMs - p.bare.tbtMs),
    jsOverKiB: of((p) => p.page.jsKiB - p.bare.jsKiB),
  };
}

const mark = (ok: boolean) => (ok ? "✓" : "✗");

/** A Markdown table with its columns padded to their widest cell. */
export function grid(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

/**
 * One row per page and language: each figure against the bare page measured beside it (median of the pairs' ratios
 * or differences, the page's and the bare page's medians in brackets), each beside its goal; `benchmarkIndex`
 * says how fast the machine was.
 */
export function formatTable(results: PageResult[]): string {
  const header = [
    "page",
    "lang",
    `main thread ≤${GOALS.mainThreadRatio}× (ms)`,
    "pairs' main thread ×",
    "renderer CPU × (ms)",
    `LCP ≤${GOALS.lcpRatio}× (s)`,
    `TBT ≤+${GOALS.tbtOverMs} (ms)`,
    `JS ≤+${GOALS.jsOverKiB} (KiB)`,
    "a11y 100",
    "BP 100",
    "perf (bare)",
    "build JS KiB",
    "elements (RSC KiB)",
    "benchmarkIndex",
    "pairs",
    "failed audits",
  ];
  const rows = results.map((r) => {
    const { medians: m, bare: b, against: a } = r;
    const sizeCell = `${r.size.elements} (${r.size.rscKiB.toFixed(1)})`;
    if (!m || !b || !a) return [r.route, r.locale, "-", "-", "-", "-", "-", "-", "-", "-", "-", r.buildJsKiB.toFixed(1), sizeCell, "-", "0", "no pair finished"];
    const signed = (n: number, digits: number) => `${n >= 0 ? "+" : ""}${n.toFixed(digits)}`;
    return [
      r.route,
      r.locale,
      `${a.mainThreadRatio.toFixed(2)}× ${mark(a.mainThreadRatio <= GOALS.mainThreadRatio)} (${m.mainThreadMs.toFixed(0)} / ${b.mainThreadMs.toFixed(0)})`,
      `${a.mainThreadSpread.low.toFixed(2)}–${a.mainThreadSpread.high.toFixed(2)}`,
      `${a.rendererCpuRatio.toFixed(2)}× (${m.rendererCpuMs.toFixed(0)} / ${b.rendererCpuMs.toFixed(0)})`,
      `${a.lcpRatio.toFixed(2)}× ${mark(a.lcpRatio <= GOALS.lcpRatio)} (${(m.lcpMs / 1000).toFixed(2)} / ${(b.lcpMs / 1000).toFixed(2)})`,
      `${signed(a.tbtOverMs, 0)} ${mark(a.tbtOverMs <= GOALS.tbtOverMs)} (${m.tbtMs.toFixed(0)} / ${b.tbtMs.toFixed(0)})`,
      `${signed(a.jsOverKiB, 1)} ${mark(a.jsOverKiB <= GOALS.jsOverKiB)} (${m.jsKiB.toFixed(1)} / ${b.jsKiB.toFixed(1)})`,
      `${m.a11y} ${mark(m.a11y >= GOALS.a11y)}`,
      `${m.bestPractices} ${mark(m.bestPractices >= GOALS.bestPractices)}`,
      `${m.perf} (${b.perf})`,
      r.buildJsKiB.toFixed(1),
      sizeCell,
      `${m.benchmarkIndex.toFixed(0)} / ${b.benchmarkIndex.toFixed(0)}`,
      String(r.runs),
      m.failedAudits.join(", ") || "none",
    ];
  });
  return grid(header, rows);
}

/** How many rows' median main-thread ratio meets the goal, and on how many rows the pairs fall on both sides of it. */
export function mainThreadVerdicts(results: PageResult[]): { rows: number; met: number; straddling: number } {
  const measured = results.flatMap((r) => (r.against ? [r.against] : []));
  const goal = GOALS.mainThreadRatio;
  return {
    rows: measured.length,
    met: measured.filter((a) => a.mainThreadRatio <= goal).length,
    straddling: measured.filter((a) => a.mainThreadSpread.low <= goal && a.mainThreadSpread.high > goal).length,
  };
}

/** True when every page met every goal against the bare page, with accessibility and best practices at 100. */
export function allWithinGoals(results: PageResult[]): boolean {
  return results.every(
    ({ medians: m, against: a }) =>
      m !== null &&
      a !== null &&
      a.mainThreadRatio <= GOALS.mainThreadRatio &&
      a.lcpRatio <= GOALS.lcpRatio &&
      a.tbtOverMs <= GOALS.tbtOverMs &&
      a.jsOverKiB <= GOALS.jsOverKiB &&
      m.a11y >= GOALS.a11y &&
      m.bestPractices >= GOALS.bestPractices,
  );
}
