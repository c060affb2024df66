import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findSystemBinary } from "./system-binary";
import { startProcess, waitForHttp, type RunningProcess } from "./child-process";

export type RunningPrometheus = RunningProcess & {
  readonly url: string;
  /** Runs an instant PromQL query; each result is its labels and value. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
};

/**
 * Debian's `prometheus` as a child process on loopback, scraping `targets` every second, with its data in a
 * private directory removed when it stops.
 */
export async function startPrometheus(port: number, targets: string[], log?: (line: string) => void): Promise<RunningPrometheus> {
  const binary = findSystemBinary("prometheus", "prometheus");
  const dir = mkdtempSync(path.join(tmpdir(), "esign-prometheus-"));
  const config = path.join(dir, "prometheus.yml");
  writeFileSync(
    config,
    `global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: esign-partner
    static_configs:
      - targets: [${targets.map((t) => JSON.stringify(t)).join(", ")}]
`,
  );
  const running = startProcess(
    "prometheus",
    binary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--storage.tsdb.retention.time=1h",
    ],
    { log },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/-/ready`, 20_000, running.child, (status) => status === 200);
  return {
    ...running,
    url,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await res.json()) as { status: string; error?: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      if (body.status !== "success" || !body.data) throw new Error(`PromQL ${promql}: ${body.error ?? res.status}`);
      return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    async stop(graceMs?: number) {
      await running.stop(graceMs);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
