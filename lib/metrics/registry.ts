import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from "prom-client";

const REGISTRY_KEY = Symbol.for("esign.metricsRegistry");
type GlobalWithRegistry = typeof globalThis & { [REGISTRY_KEY]?: Registry };

/** Latency buckets (seconds) for calls that should take milliseconds and may take up to the 10 s deadline. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's one registry. On globalThis because Next's production build loads a module once per bundle
 * (proxy, route handlers, pages, instrumentation): a module-level registry would be several registries, each
 * seeing part of the traffic. Node's default metrics (heap, RSS, event loop, GC), the heap cap and build info are added once.
 */
export function getMetricsRegistry(): Registry {
  const g = globalThis as GlobalWithRegistry;
  if (g[REGISTRY_KEY]) return g[REGISTRY_KEY];
  const registry = new Registry();
  g[REGISTRY_KEY] = registry;
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "esign_build_info",
    help: "Always 1; labels name the build (Next's build id) and the Node.js version this instance runs",
    labelNames: ["build_id", "node_version"],
    registers: [registry],
  }).set({ build_id: readBuildId(), node_version: process.version }, 1);
  // Beside Node's heap and RSS metrics, for sizing instances: the cap set with --max-old-space-size (or V8's default).
  new Gauge({
    name: "esign_heap_size_limit_bytes",
    help: "V8 heap size limit of this process",
    registers: [registry],
    collect() {
      this.set(v8.getHeapStatistics().heap_size_limit);
    },
  });
  return registry;
}

/** Next writes the build id next to the server; one deployment's instances must all show the same one. */
function readBuildId(): string {
  try {
    return readFileSync(path.join(process.cwd(), ".next", "BUILD_ID"), "utf8").trim();
  } catch {
    return "unknown";
  }
}

/** Metrics are recorded only when something can read them: with METRICS_PORT set (the /metrics listener). */
export function metricsEnabled(): boolean {
  return Boolean(process.env.METRICS_PORT);
}

type Config<L extends string> = { name: string; help: string; labelNames?: readonly L[] };

/** What the recording functions get while metrics are off: every update is dropped. */
const DISCARD = { inc() {}, observe() {}, set() {} };

// Each metric is created once per process and found by name afterwards, whichever bundle asks first.
function existing<M extends Metric>(name: string): M | undefined {
  return getMetricsRegistry().getSingleMetric(name) as M | undefined;
}

export function counter<L extends string>(config: Config<L>): Counter<L> {
  if (!metricsEnabled()) return DISCARD as unknown as Counter<L>;
  return existing<Counter<L>>(config.name) ?? new Counter({ ...config, labelNames: config.labelNames ?? [], registers: [getMetricsRegistry()] });
}

export function histogram<L extends string>(config: Config<L> & { buckets?: number[] }): Histogram<L> {
  if (!metricsEnabled()) return DISCARD as unknown as Histogram<L>;
  return (
    existing<Histogram<L>>(config.name) ??
    new Histogram({ buckets: LATENCY_BUCKETS, ...config, labelNames: config.labelNames ?? [], registers: [getMetricsRegistry()] })
  );
}

export function gauge<L extends string>(config: Config<L> & { collect?: (this: Gauge<L>) => void | Promise<void> }): Gauge<L> {
  if (!metricsEnabled()) return DISCARD as unknown as Gauge<L>;
  return existing<Gauge<L>>(config.name) ?? new Gauge({ ...config, labelNames: config.labelNames ?? [], registers: [getMetricsRegistry()] });
}
