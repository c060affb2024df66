import type { LighthouseRun } from "./lighthouse";

/** Per figure, the median over a page's runs; the audits, those that failed in any run. */
export type Medians = LighthouseRun;

export interface PageResult {
  route: string;
  jsBudgetKiB: number;
  buildJsKiB: number;
  runs: number;
  medians: Medians | null;
}

const GOALS = { perf: 95, a11y: 100, bestPractices: 100 };

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
    lcpMs: of((r) => r.lcpMs),
    tbtMs: of((r) => r.tbtMs),
    cls: of((r) => r.cls),
    jsKiB: of((r) => r.jsKiB),
    failedAudits: [...new Set(runs.flatMap((r) => r.failedAudits))],
  };
}

const mark = (ok: boolean) => (ok ? "✓" : "✗");

export function formatTable(results: PageResult[]): string {
  const header = ["page", "perf ≥95", "a11y 100", "BP 100", "LCP s", "TBT ms", "CLS", "JS KiB", "build JS KiB", "runs", "failed audits"];
  const rows = results.map((r) => {
    const m = r.medians;
    const budget = `(≤${r.jsBudgetKiB})`;
    if (!m) return [r.route, "-", "-", "-", "-", "-", "-", "-", `${r.buildJsKiB.toFixed(1)} ${mark(r.buildJsKiB <= r.jsBudgetKiB)} ${budget}`, "0", "all runs failed"];
    return [
      r.route,
      `${m.perf} ${mark(m.perf >= GOALS.perf)}`,
      `${m.a11y} ${mark(m.a11y >= GOALS.a11y)}`,
      `${m.bestPractices} ${mark(m.bestPractices >= GOALS.bestPractices)}`,
      (m.lcpMs / 1000).toFixed(2),
      m.tbtMs.toFixed(0),
      m.cls.toFixed(3),
      `${m.jsKiB.toFixed(1)} ${mark(m.jsKiB <= r.jsBudgetKiB)}`,
      `${r.buildJsKiB.toFixed(1)} ${mark(r.buildJsKiB <= r.jsBudgetKiB)} ${budget}`,
      String(r.runs),
      m.failedAudits.join(", ") || "none",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}
