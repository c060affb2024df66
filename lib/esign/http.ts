import "server-only";
import { AppError } from "@/lib/errors";
import { currentRequestId } from "@/lib/logging/request-context";

export type UpstreamResponse = { status: number; body: unknown };

/**
 * Sends one request to the service with a deadline, returning status and parsed JSON (or null).
 * Network failures and timeouts become AppErrors; HTTP error statuses are returned for the caller to map.
 * Carries the current request's id as X-Request-Id, so the service's logs line up with ours.
 */
export async function sendToService(url: string, init: RequestInit, timeoutMs: number): Promise<UpstreamResponse> {
  const headers = new Headers(init.headers);
  const requestId = currentRequestId();
  if (requestId) headers.set("x-request-id", requestId);
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers, cache: "no-store", redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") {
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
  return { status: response.status, body };
}

/** Maps a 5xx (or any unexpected status) from the service to a retryable error. */
export function unexpectedStatus(operation: string, status: number): AppError {
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
