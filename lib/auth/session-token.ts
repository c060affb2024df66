import "server-only";
import type { JWT } from "next-auth/jwt";

/** Why a session can no longer call the service; the UI asks the user to sign in again. */
export type SessionError = "RefreshRejected" | "SessionExpired";

/** What the encrypted session cookie holds. Tokens stay in this HttpOnly cookie and never reach the browser's JS. */
export type SessionToken = JWT & {
  accessToken?: string;
  refreshToken?: string;
  /** Epoch seconds. */
  accessTokenExpiresAt?: number;
  /** Seconds, as granted (expires_in); sets how early we refresh. */
  accessTokenLifetime?: number;
  grantedScope?: string;
  requestedScope?: string;
  /** Kept only as `id_token_hint` for ending the service's session at sign-out (lib/auth/end-session.ts). */
  idToken?: string;
  error?: SessionError;
};

/** How long the session cookie lives; the refresh token's own lifetime bounds it in practice. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * Seconds before expiry at which we refresh: 10% of the lifetime, at most a minute.
 * Early enough that a request never reaches the service with a token about to lapse.
 */
export function refreshMarginSeconds(lifetime: number | undefined): number {
  if (!lifetime || lifetime <= 0) return 0;
  return Math.min(60, Math.floor(lifetime * 0.1));
}

export function needsRefresh(token: SessionToken, nowSeconds = Date.now() / 1000): boolean {
  if (token.error || !token.accessToken || token.accessTokenExpiresAt === undefined) return false;
  return nowSeconds >= token.accessTokenExpiresAt - refreshMarginSeconds(token.accessTokenLifetime);
}

export function isAccessTokenExpired(token: SessionToken, nowSeconds = Date.now() / 1000): boolean {
  return token.accessTokenExpiresAt === undefined || nowSeconds >= token.accessTokenExpiresAt;
}
