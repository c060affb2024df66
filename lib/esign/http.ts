import "server-only";
import { AppError } from "@/lib/errors";

export type UpstreamResponse = { status: number; body: unknown };

/**
 * Sends one request to the service with a deadline, returning status and parsed JSON (or null).
 * Network failures and timeouts become AppErrors; HTTP error statuses are returned for the caller to map.
 */
export async function sendToService(url: string, init: RequestInit, timeoutMs: number): Promise<UpstreamResponse> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, cache: "no-store", redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
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
