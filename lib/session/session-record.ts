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

export function needsRefresh(record: SessionRecord, nowSeconds = Date.now() / 1000): boolean {
  if (record.error || !record.accessToken || record.accessTokenExpiresAt === undefined) return false;
  return nowSeconds >= record.accessTokenExpiresAt - refreshMarginSeconds(record.accessTokenLifetime);
}

export function isAccessTokenExpired(record: SessionRecord, nowSeconds = Date.now() / 1000): boolean {
  return record.accessTokenExpiresAt === undefined || nowSeconds >= record.accessTokenExpiresAt;
}

export type SessionLimits = { idleTimeoutMs: number; maxAgeMs: number };

/** When a session ends: the idle timeout after its last request, but never past its absolute lifetime. Epoch ms. */
export function sessionExpiresAt(createdAt: number, lastSeenAt: number, limits: SessionLimits): number {
  return Math.min(lastSeenAt + limits.idleTimeoutMs, createdAt + limits.maxAgeMs);
}
