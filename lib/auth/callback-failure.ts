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

type ErrorLike = { err?: unknown; name?: unknown; type?: unknown; message?: unknown; code?: unknown; error?: unknown; status?: unknown; error_description?: unknown; cause?: unknown };

function asErrorLike(value: unknown): ErrorLike | undefined {
  return value && typeof value === "object" ? (value as ErrorLike) : undefined;
}

/** The library error underneath Auth.js's wrapper (`CallbackRouteError` keeps it as `cause.err`). */
function innerError(error: ErrorLike): ErrorLike | undefined {
  return asErrorLike(asErrorLike(error.cause)?.err);
}

// oauth4webapi's own wording for a state or nonce that is not the one this browser sent (its codes are generic).
const CHECK_MISMATCH = /"state"|"nonce"/;

export function classifyCallbackFailure(error: unknown): CallbackFailureKind {
  const outer = asErrorLike(error);
  if (!outer) return "configuration";
  if (outer.type === "InvalidCheck") return "stale";
  if (outer.type !== "CallbackRouteError") return "configuration";
  const inner = innerError(outer);
  if (!inner) return "configuration";
  if (inner.code === "OAUTH_RESPONSE_BODY_ERROR") return inner.error === "invalid_grant" ? "stale" : "configuration";
  // oauth4webapi's errors carry an `OAUTH_*` code; their class names do not survive minification.
  if (typeof inner.code === "string" && inner.code.startsWith("OAUTH_") && typeof inner.message === "string" && CHECK_MISMATCH.test(inner.message)) {
    return "stale";
  }
  return "configuration";
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
