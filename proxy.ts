import { NextResponse, type NextRequest } from "next/server";
import { cookieHeaderWithSession, encodeSessionToken, readSessionToken, setSessionCookie } from "@/lib/auth/session-cookie";
import { rotateTokensIfNeeded } from "@/lib/auth/rotate-tokens";

/**
 * Refreshes the session's tokens before pages and route handlers run, because only here (and in
 * the Auth.js route) can the rotated cookie be written back. The new cookie is also put on the
 * request passed on, so every reader in this request sees the new token instead of redeeming the
 * old refresh token a second time.
 */
export async function proxy(req: NextRequest) {
  const token = await readSessionToken(req);
  if (!token) return NextResponse.next();
  const rotated = await rotateTokensIfNeeded(token);
  if (rotated === token) return NextResponse.next();

  const value = await encodeSessionToken(req, rotated);
  const headers = new Headers(req.headers);
  headers.set("cookie", cookieHeaderWithSession(req, value));
  const res = NextResponse.next({ request: { headers } });
  setSessionCookie(req, res, value);
  return res;
}

export const config = {
  // Auth.js's own routes run the same rotation in their jwt callback and set the cookie themselves.
  matcher: ["/((?!api/auth/|_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
