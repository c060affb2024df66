/** Latencies and outcomes of one load phase. */
export interface PhaseResult {
  requests: number;
  errors: number;
  elapsedMs: number;
  /** Milliseconds, one per completed request, unsorted. */
  latenciesMs: number[];
}

/** Nearest-rank percentile (p in 0..100) of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export interface PhaseSummary {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}

export function summarize(result: PhaseResult): PhaseSummary {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  return {
    rps: result.requests / (result.elapsedMs / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors: result.errors,
    requests: result.requests,
  };
}

export interface ComparisonRow {
  sessions: number;
  direct: PhaseSummary;
  app: PhaseSummary;
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

/** A Markdown table, so the figures paste straight into docs/hardening.md. */
export function formatTable(rows: ComparisonRow[]): string {
  const header = [
    "| N | target | requests | req/s | p50 | p99 | errors |",
    "|---:|---|---:|---:|---:|---:|---:|",
  ];
  const lines = rows.flatMap(({ sessions, direct, app }) => [
    `| ${sessions} | sandbox \`GET /api/getuserinfo\` | ${direct.requests} | ${direct.rps.toFixed(0)} | ${ms(direct.p50)} | ${ms(direct.p99)} | ${direct.errors} |`,
    `| ${sessions} | app \`GET /api/account\` | ${app.requests} | ${app.rps.toFixed(0)} | ${ms(app.p50)} | ${ms(app.p99)} | ${app.errors} |`,
    `| ${sessions} | **overhead** | | **${(direct.rps / app.rps).toFixed(2)}× fewer** | **+${ms(app.p50 - direct.p50)}** | +${ms(app.p99 - direct.p99)} | |`,
  ]);
  return [...header, ...lines].join("\n");
}
