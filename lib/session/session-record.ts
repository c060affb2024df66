import "server-only";

/** Why a session can no longer call the service; the UI asks the user to sign in again. */
export type SessionError = "RefreshRejected" | "SessionExpired";

/**
 * One signed-in browser, as the server-side session store keeps it (sealed: see seal.ts). The browser holds only
 * a random handle to it in the session cookie, so token sizes never reach a cookie.
 */
export type SessionRecord = {
  /** The service's subject (the id_token's `sub`). */
  subject: string;
  /** The id_token's `sid`: the service's session, named by back-channel logout tokens. */
  oidcSid?: string;
  name?: string;
  email?: string;
  accessToken?: string;
  refreshToken?: string;
  /** Kept as `id_token_hint` for RP-initiated logout. */
  idToken?: string;
  /**
   * Set when a refresh returned an id_token whose signature could not be checked because the keys could not be
   * fetched: the new tokens are kept (the old refresh token is spent) and the check runs at the next refresh.
   */
  idTokenUnverified?: boolean;
  /** Epoch seconds. */
  accessTokenExpiresAt?: number;
  /** Seconds, as granted (expires_in); sets how early we refresh. */
  accessTokenLifetime?: number;
  grantedScope?: string;
  requestedScope?: string;
  device: { browser: string; os: string };
  error?: SessionError;
};

/**
 * Seconds before expiry at which we refresh: 10% of the lifetime, at most a minute, and at least 2 s (half the
 * lifetime for tokens shorter than 4 s): early enough that a request slowed between the refresh check and its
 * call to the service still carries a live token, even with the short tokens of a test setup.
 */
export function refreshMarginSeconds(lifetime: number | undefined): number {
  if (!lifetime || lifetime <= 0) return 0;
  return Math.min(60, Math.max(lifetime * 0.1, Math.min(2, lifetime / 2)));
}

/**
 * Whether the session's tokens are due for a refresh: a refresh token is held, no error ended the tokens, and the
 * access token is within its refresh margin of expiry. The one place that decides it (proxy.ts's refresh and the
 * refresh lock's waiters both ask).
 */
export function isRefreshDue(record: SessionRecord, nowSeconds = Date.now() / 1000): boolean {
  if (record.error || !record.accessToken || !record.refreshToken || record.accessTokenExpiresAt === undefined) return false;
  return nowSeconds >= record.accessTokenExpiresAt - refreshMarginSeconds(record.accessTokenLifetime);
}

/**
 * What the session's access token is good for now, the one place that decides it:
 * - `usable`: call the service with it;
 * - `expired`: the session can no longer call the service (refresh refused, or, without a refresh token, the
 *   access token lapsed): the user signs in again;
 * - `deferred`: lapsed while a refresh token is held, because the refresh was put off (token endpoint
 *   unreachable): the service is "temporarily unavailable", the next request tries again.
 */
export type AccessTokenState = { status: "usable"; accessToken: string } | { status: "expired" } | { status: "deferred" };

export function accessTokenState(record: SessionRecord, nowSeconds = Date.now() / 1000): AccessTokenState {
  if (record.error || !record.accessToken) return { status: "expired" };
  if (record.accessTokenExpiresAt === undefined || nowSeconds >= record.accessTokenExpiresAt) {
    return record.refreshToken ? { status: "deferred" } : { status: "expired" };
  }
  return { status: "usable", accessToken: record.accessToken };
}

export type SessionLimits = { idleTimeoutMs: number; maxAgeMs: number };

/** When a session ends: the idle timeout after its last request, but never past its absolute lifetime. Epoch ms. */
export function sessionExpiresAt(createdAt: number, lastSeenAt: number, limits: SessionLimits): number {
  return Math.min(lastSeenAt + limits.idleTimeoutMs, createdAt + limits.maxAgeMs);
}
