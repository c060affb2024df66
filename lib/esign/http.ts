import "server-only";
import { AppError } from "@/lib/errors";
import { currentRequestId, currentRequestSpan } from "@/lib/logging/request-context";
import { outcomeOfStatus, recordServiceCall, type ServiceOperation } from "@/lib/metrics/service-calls";
import { endServiceSpan, startServiceSpan, traceParentOf } from "@/lib/tracing/spans";

/** `retryAfter`: the service's Retry-After header, as sent (a 429 or 503 may carry one). */
export type UpstreamResponse = { status: number; body: unknown; retryAfter: string | null };

const isTimeout = (error: unknown) => error instanceof DOMException && error.name === "TimeoutError";

/**
 * fetch for every call to the service: carries the current request's id as X-Request-Id (so the service's logs
 * line up with ours) and, when tracing is on, a traceparent; records the call's latency and outcome in the
 * metrics and as a child span of the request. Timed until the answer's headers arrive.
 */
export async function fetchFromService(operation: ServiceOperation, input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  const requestId = currentRequestId();
  if (requestId) headers.set("x-request-id", requestId);
  const span = startServiceSpan(currentRequestSpan(), operation, init.method ?? (input instanceof Request ? input.method : "GET"), url, requestId);
  const traceParent = traceParentOf(span);
  if (traceParent) headers.set("traceparent", traceParent);
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  try {
    const response = await fetch(input, { ...init, headers });
    recordServiceCall(operation, outcomeOfStatus(response.status), elapsed());
    endServiceSpan(span, { status: response.status });
    return response;
  } catch (error) {
    const failure = isTimeout(error) ? "timeout" : "unreachable";
    recordServiceCall(operation, failure, elapsed());
    endServiceSpan(span, { failure });
    throw error;
  }
}

/**
 * Sends one request to the service with a deadline, returning status and parsed JSON (or null).
 * Network failures and timeouts become AppErrors; HTTP error statuses are returned for the caller to map.
 */
export async function sendToService(operation: ServiceOperation, url: string, init: RequestInit, timeoutMs: number): Promise<UpstreamResponse> {
  let response: Response;
  try {
    response = await fetchFromService(operation, url, { ...init, cache: "no-store", redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (isTimeout(error)) {
      throw new AppError("SERVICE_TIMEOUT", 504, "The e-signature service did not answer in time. Please try again.", undefined, {
        cause: error,
      });
    }
    throw new AppError("SERVICE_UNAVAILABLE", 503, "The e-signature service cannot be reached right now. Please try again shortly.", undefined, {
      cause: error,
    });
  }
  const text = await response.text().catch(() => "");
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  return { status: response.status, body, retryAfter: response.headers.get("retry-after") };
}

/** The wait when the service's 429 names none (or one that cannot be read): a minute, as the spec shows no limits. */
const DEFAULT_SERVICE_RETRY_AFTER_S = 60;

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in whole seconds from now, at least 1. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Math.max(1, Number(value));
  const date = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? DEFAULT_SERVICE_RETRY_AFTER_S : Math.max(1, Math.ceil((date - now) / 1000));
}

/**
 * The service's own 429, passed on to the browser with the service's wait. Not retried here: the browser waits
 * the Retry-After it is given, so a throttled service is never answered with a storm of retries.
 */
export function serviceRateLimitedError(operation: string, retryAfter: string | null): AppError {
  const seconds = retryAfterSeconds(retryAfter);
  return new AppError(
    "SERVICE_RATE_LIMITED",
    429,
    `The e-signature service is limiting requests right now. Please try again in ${seconds} s.`,
    undefined,
    {
      cause: new Error(`${operation} answered 429`),
      rateLimit: { limit: "service", retryAfterSeconds: seconds, headers: { "retry-after": String(seconds), "cache-control": "no-store" } },
    },
  );
}

/** Maps a 429 (the service's own limit), a 5xx or any other unexpected status from the service to an error. */
export function unexpectedStatus(operation: string, status: number, retryAfter: string | null = null): AppError {
  if (status === 429) return serviceRateLimitedError(operation, retryAfter);
  if (status >= 500) {
    return new AppError("SERVICE_UNAVAILABLE", 503, "The e-signature service is having trouble right now. Please try again shortly.", undefined, {
      cause: new Error(`${operation} answered ${status}`),
    });
  }
  return malformedResponse(operation, `answered ${status}`);
}

export function malformedResponse(operation: string, detail: string): AppError {
  return new AppError("BAD_UPSTREAM_RESPONSE", 502, "The e-signature service gave an answer we did not understand.", undefined, {
    cause: new Error(`${operation}: ${detail}`),
  });
}
