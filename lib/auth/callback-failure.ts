/**
 * Why an Auth.js sign-in failed, in the two kinds a person needs told apart. Auth.js reports both as
 * `?error=Configuration`, which blames the administrator for a stale link.
 *
 * - `stale`: the callback did not belong to this browser's sign-in in progress (state, PKCE or nonce
 *   check failed: two tabs, the back button, an old link) or its code was used or expired
 *   (`invalid_grant`). Signing in again fixes it.
 * - `configuration`: anything else — discovery or token endpoint unreachable, the client refused
 *   (`invalid_client`), an answer we cannot accept. Only the administrator can fix it.
 */
export type CallbackFailureKind = "stale" | "configuration";

type ErrorLike = {
  err?: unknown;
  name?: unknown;
  type?: unknown;
  message?: unknown;
  code?: unknown;
  error?: unknown;
  status?: unknown;
  error_description?: unknown;
  cause?: unknown;
  claim?: unknown;
};

function asErrorLike(value: unknown): ErrorLike | undefined {
  return value && typeof value === "object" ? (value as ErrorLike) : undefined;
}

/** The library error underneath Auth.js's wrapper (`CallbackRouteError` keeps it as `cause.err`). */
function innerError(error: ErrorLike): ErrorLike | undefined {
  return asErrorLike(asErrorLike(error.cause)?.err);
}

/**
 * oauth4webapi's error codes and the structured `cause` it attaches; only the state check needs its text,
 * because the same code and cause shape also cover an unexpected `iss`. tests/unit/callback-failure.test.ts
 * pins these texts against the installed version, so a library upgrade that rewords them fails there.
 */
export const OAUTH_CODES = {
  responseBodyError: "OAUTH_RESPONSE_BODY_ERROR",
  claimComparison: "OAUTH_JWT_CLAIM_COMPARISON_FAILED",
  invalidResponse: "OAUTH_INVALID_RESPONSE",
} as const;
export const STATE_CHECK_MESSAGES: readonly string[] = ['unexpected "state" response parameter value', 'response parameter "state" missing'];

function isNonceMismatch(inner: ErrorLike): boolean {
  return inner.code === OAUTH_CODES.claimComparison && asErrorLike(inner.cause)?.claim === "nonce";
}

function isStateMismatch(inner: ErrorLike): boolean {
  return inner.code === OAUTH_CODES.invalidResponse && typeof inner.message === "string" && STATE_CHECK_MESSAGES.includes(inner.message);
}

export function classifyCallbackFailure(error: unknown): CallbackFailureKind {
  const outer = asErrorLike(error);
  if (!outer) return "configuration";
  if (outer.type === "InvalidCheck") return "stale";
  if (outer.type !== "CallbackRouteError") return "configuration";
  const inner = innerError(outer);
  if (!inner) return "configuration";
  if (inner.code === OAUTH_CODES.responseBodyError) return inner.error === "invalid_grant" ? "stale" : "configuration";
  return isNonceMismatch(inner) || isStateMismatch(inner) ? "stale" : "configuration";
}

/**
 * One log line's worth of what went wrong: error names, messages and the service's error code, never
 * the objects themselves (oauth4webapi attaches whole token responses to some errors).
 */
export function describeAuthError(error: unknown): string {
  const outer = asErrorLike(error);
  if (!outer) return String(error);
  const parts = [`${String(outer.type ?? outer.name ?? "Error")}: ${String(outer.message ?? "")}`];
  const inner = innerError(outer) ?? asErrorLike(outer.cause);
  if (inner) {
    const service = inner.error ? ` (${String(inner.status ?? "")} ${String(inner.error)}${inner.error_description ? `: ${String(inner.error_description)}` : ""})` : "";
    parts.push(`cause ${String(inner.code ?? inner.name ?? "Error")}: ${String(inner.message ?? "")}${service}`);
    const root = asErrorLike(inner.cause);
    if (root && typeof root.message === "string") parts.push(`cause ${String(root.code ?? root.name ?? "Error")}: ${root.message}`);
  }
  return parts.join(" — ");
}
