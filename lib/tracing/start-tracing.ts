import "server-only";
import { hostname } from "node:os";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { setTracing } from "@/lib/tracing/tracer";

/**
 * Starts exporting spans over OTLP/HTTP (JSON) when OTEL_EXPORTER_OTLP_ENDPOINT is set; the exporter reads the
 * standard OTEL_EXPORTER_OTLP_* variables (endpoint, headers, timeout). The provider is deliberately not
 * registered as the global one: Next.js would then emit its own spans, whose attributes carry the full request
 * URL (the callback's code and state among them). Only the app's spans exist: one per request, one per call to
 * the service (lib/tracing/spans.ts), with attributes chosen to hold no token, cookie, secret or query.
 */
export function startTracingFromEnv(): boolean {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return false;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": process.env.OTEL_SERVICE_NAME || "esign-partner",
      "service.instance.id": process.env.INSTANCE_ID || `${hostname()}:${process.env.PORT ?? "3000"}`,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        // The standard variable, which this SDK line no longer reads by itself; 5 s (its default) otherwise.
        scheduledDelayMillis: Number(process.env.OTEL_BSP_SCHEDULE_DELAY) || 5_000,
      }),
    ],
  });
  setTracing({ tracer: provider.getTracer("esign-partner"), flush: () => provider.forceFlush() });
  return true;
}
