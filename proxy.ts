import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "@/lib/env";
import { cookieHeaderWithSession, encodeSessionToken, readSessionTokenState, setSessionCookie } from "@/lib/auth/session-cookie";
import { rotateTokensIfNeeded } from "@/lib/auth/rotate-tokens";
import { buildContentSecurityPolicy, createNonce } from "@/lib/security/content-security-policy";

/**
 * The session cookie's new value when its tokens were due and got rotated, or when it was encrypted under a
 * previous AUTH_SECRET (re-encrypted under the current one); else null.
 */
async function rotatedSessionCookie(req: NextRequest): Promise<string | null> {
  const { token, underOldSecret } = await readSessionTokenState(req);
  if (!token) return null;
  const rotated = await rotateTokensIfNeeded(token);
  return rotated === token && !underOldSecret ? null : encodeSessionToken(req, rotated);
}

/**
 * Runs before every page and route handler (Auth.js's own routes excluded):
 *
 * 1. Refreshes the session's tokens when due, because only here (and in the Auth.js route) can the
 *    rotated cookie be written back. The new cookie is also put on the request passed on, so every
 *    reader in this request sees the new token instead of redeeming the old refresh token again.
 * 2. Sets a Content-Security-Policy with a per-request nonce; Next reads it from the request headers
 *    and puts the nonce on its own scripts.
 */
export async function proxy(req: NextRequest) {
  const config = getConfig();
  const nonce = createNonce();
  const csp = buildContentSecurityPolicy({
    nonce,
    authOrigin: new URL(config.authUrl).origin,
    storageOrigins: config.storageOrigins,
    development: process.env.NODE_ENV === "development",
  });

  const cookie = await rotatedSessionCookie(req);
  const headers = new Headers(req.headers);
  headers.set("content-security-policy", csp);
  if (cookie) headers.set("cookie", cookieHeaderWithSession(req, cookie));

  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  if (cookie) setSessionCookie(req, res, cookie);
  return res;
}

export const config = {
  // Auth.js's own routes run the same rotation in their jwt callback and set the cookie themselves.
  // Health probes carry no session and render no HTML: neither refresh nor CSP applies to them.
  matcher: ["/((?!api/auth/|api/health|_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
