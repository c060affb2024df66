import "server-only";
import { SpanKind, SpanStatusCode, trace, ROOT_CONTEXT, type Span } from "@opentelemetry/api";
import { getTracing } from "@/lib/tracing/tracer";

/**
 * The span of one incoming request, or undefined when tracing is off. Named by method and route label (never the
 * raw path's query); the request id is an attribute, so a trace is found from a user's reference or a log line.
 */
export function startRequestSpan(method: string, route: string, path: string, requestId: string): Span | undefined {
  return getTracing()?.tracer.startSpan(`${method} ${route}`, {
    kind: SpanKind.SERVER,
    attributes: { "http.request.method": method, "http.route": route, "url.path": path, "esign.request_id": requestId },
  });
}

export function endRequestSpan(span: Span | undefined, status: number, aborted: boolean): void {
  if (!span) return;
  span.setAttribute("http.response.status_code", status);
  if (status >= 500 || aborted) span.setStatus({ code: SpanStatusCode.ERROR, message: aborted ? "aborted" : undefined });
  span.end();
}

/**
 * A child span of `parent` for one call to the service, or undefined when tracing is off or the call happens
 * outside a request. Attributes: operation, method, host and path (no query: SAS URLs and codes live there).
 */
export function startServiceSpan(parent: Span | undefined, operation: string, method: string, url: URL, requestId: string | undefined): Span | undefined {
  const tracing = getTracing();
  if (!tracing || !parent) return undefined;
  return tracing.tracer.startSpan(
    `esign ${operation}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        "esign.operation": operation,
        "http.request.method": method,
        "server.address": url.hostname,
        "url.path": url.pathname,
        ...(requestId ? { "esign.request_id": requestId } : {}),
      },
    },
    trace.setSpan(ROOT_CONTEXT, parent),
  );
}

/** Ends a service call's span with the service's status code, or with the error kind when there was no answer. */
export function endServiceSpan(span: Span | undefined, result: { status: number } | { failure: string }): void {
  if (!span) return;
  if ("status" in result) {
    span.setAttribute("http.response.status_code", result.status);
    if (result.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  } else {
    span.setAttribute("error.type", result.failure);
    span.setStatus({ code: SpanStatusCode.ERROR, message: result.failure });
  }
  span.end();
}

/** W3C traceparent for a call the span describes, so the service's own traces can join ours. */
export function traceParentOf(span: Span | undefined): string | undefined {
  if (!span) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, "0")}`;
}
