import { decodeJwt } from "jose";
import { encode } from "next-auth/jwt";
import type { TokenSet } from "../../tests/sandbox/support/oauth";

/** Auth.js's cookie name over http (no `__Secure-` prefix); it is also the encryption salt. */
export const SESSION_COOKIE = "authjs.session-token";
const MAX_AGE_SECONDS = 7 * 24 * 3600;

/**
 * The session cookie of the design before server-side sessions (main at e44ffe4): the tokens themselves,
 * encrypted with Auth.js's `encode`, shaped as that commit's auth.ts wrote it (lib/auth/rotate-tokens.ts).
 */
export function encodeTokenCookie(tokens: TokenSet, secret: string, cookieName = SESSION_COOKIE): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return encode({
    secret,
    salt: cookieName,
    maxAge: MAX_AGE_SECONDS,
    token: {
      name: "Alice Example",
      email: "alice@example.com",
      sub: String(decodeJwt(tokens.id_token).sub),
      idToken: tokens.id_token,
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      accessTokenExpiresAt: now + tokens.expires_in,
      accessTokenLifetime: tokens.expires_in,
      grantedScope: tokens.scope,
      requestedScope: "openid profile email service.api offline_access",
    },
  });
}

/** Today's session cookie (lib/auth/session-token.ts): display fields and the handle of a server-side session. */
export function encodeHandleCookie(handle: string, subject: string, secret: string, cookieName = SESSION_COOKIE): Promise<string> {
  return encode({
    secret,
    salt: cookieName,
    maxAge: MAX_AGE_SECONDS,
    token: { name: "Alice Example", email: "alice@example.com", sub: subject, sessionHandle: handle },
  });
}
