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
    /** A 429's wait in seconds (its Retry-After), so the caller can come back when the budget allows. */
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
  const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN);
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
  if (error?.code) throw new ApiError(response.status, error.code, error.message, error.requestId, error.fields, retryAfterSeconds);
  throw new ApiError(response.status, "INTERNAL", `The app's server answered ${response.status}. Please try again.`);
}
