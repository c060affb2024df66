import type { ErrorBody } from "@/lib/errors";

type ErrorCode = ErrorBody["error"]["code"];

/** An error answer from one of our route handlers, as the browser sees it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "NETWORK",
    message: string,
    readonly requestId?: string,
    readonly fields?: Record<string, string[]>,
    /** The answer's `Retry-After` in seconds (a 429's, a 503's), when it had one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** Worth retrying as it is (the service or network had a blip), as opposed to needing the user to act. */
  get retryable(): boolean {
    return this.code === "NETWORK" || this.status >= 500;
  }

  get needsSignIn(): boolean {
    return this.code === "UNAUTHENTICATED" || this.code === "SESSION_EXPIRED";
  }
}

/** Calls one of our route handlers and returns its JSON, or throws ApiError with the handler's code and message. */
export async function fetchJson<T>(input: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(input, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch {
    throw new ApiError(0, "NETWORK", "We could not reach the app's server. Check your connection and try again.");
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return body as T;
  const error = (body as Partial<ErrorBody> | null)?.error;
  const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
  if (error?.code) throw new ApiError(response.status, error.code, error.message, error.requestId, error.fields, retryAfter);
  throw new ApiError(response.status, "INTERNAL", `The app's server answered ${response.status}. Please try again.`, undefined, undefined, retryAfter);
}

/**
 * The shortest wait after a 429, whatever its `Retry-After` says (0, or a date already past, as a proxy may send):
 * every wait on a 429 in the browser (the upload queue's, the report outbox's) takes at least this, so a 429 never
 * turns into a loop of requests.
 */
export const MIN_RATE_LIMIT_WAIT_MS = 1_000;

/** How long to wait after a 429 that asked for `retryAfterSeconds`: that long, and never less than MIN_RATE_LIMIT_WAIT_MS. */
export function rateLimitWaitMs(retryAfterSeconds: number): number {
  return Math.max(retryAfterSeconds * 1000, MIN_RATE_LIMIT_WAIT_MS);
}

/** `Retry-After` (RFC 9110 §10.2.3), delay-seconds or an HTTP date, as seconds from `now`; undefined without a valid one. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
