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

/** Phases of one target taken in turns, as one. */
export function mergePhases(parts: PhaseResult[]): PhaseResult {
  return {
    requests: parts.reduce((sum, p) => sum + p.requests, 0),
    errors: parts.reduce((sum, p) => sum + p.errors, 0),
    elapsedMs: parts.reduce((sum, p) => sum + p.elapsedMs, 0),
    latenciesMs: parts.flatMap((p) => p.latenciesMs),
  };
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

/** One N: the sandbox hit directly, then each app build under the same load; `before` names the baseline app. */
export interface SizeResult {
  sessions: number;
  direct: PhaseSummary;
  apps: { label: string; summary: PhaseSummary }[];
  before?: string;
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const signed = (v: number) => `${v >= 0 ? "+" : "−"}${ms(Math.abs(v))}`;

/** A Markdown table, so the figures paste straight into docs/hardening.md. */
export function formatTable(results: SizeResult[]): string {
  const header = [
    "| N | target | requests | req/s | p50 | p99 | errors | p50 − direct | p50 − before |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const line = (n: number, label: string, s: PhaseSummary, overDirect: string, overBefore: string) =>
    `| ${n} | ${label} | ${s.requests} | ${s.rps.toFixed(0)} | ${ms(s.p50)} | ${ms(s.p99)} | ${s.errors} | ${overDirect} | ${overBefore} |`;
  const lines = results.flatMap(({ sessions, direct, apps, before }) => {
    const baseline = apps.find((a) => a.label === before)?.summary;
    return [
      line(sessions, "sandbox `GET /api/getuserinfo`", direct, "", ""),
      ...apps.map(({ label, summary }) =>
        line(sessions, label, summary, signed(summary.p50 - direct.p50), baseline && label !== before ? `**${signed(summary.p50 - baseline.p50)}**` : ""),
      ),
    ];
  });
  return [...header, ...lines].join("\n");
}
