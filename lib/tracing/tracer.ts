import "server-only";
import type { Tracer } from "@opentelemetry/api";

const TRACING_KEY = Symbol.for("esign.tracing");

export type Tracing = { tracer: Tracer; flush(): Promise<void> };
type GlobalWithTracing = typeof globalThis & { [TRACING_KEY]?: Tracing };

/** The process's tracer, or undefined when tracing is off (no OTEL_EXPORTER_OTLP_ENDPOINT). On globalThis: one per process. */
export function getTracing(): Tracing | undefined {
  return (globalThis as GlobalWithTracing)[TRACING_KEY];
}

export function setTracing(tracing: Tracing): void {
  (globalThis as GlobalWithTracing)[TRACING_KEY] = tracing;
}

/** Sends the spans still buffered (at shutdown); a no-op when tracing is off. Never throws. */
export async function flushTraces(): Promise<void> {
  await getTracing()
    ?.flush()
    .catch(() => {});
}
