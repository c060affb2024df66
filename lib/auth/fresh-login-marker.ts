import "server-only";
import type { NextRequest, NextResponse } from "next/server";
import { FRESH_LOGIN_COOKIE, markerCookieOptions, usesSecureCookies } from "@/lib/auth/sign-in-markers";

/**
 * After a route handler ended this browser's own session: the next sign-in asks the service for a fresh login,
 * as after Sign out (app/actions.ts). The session cookie itself goes at the next request (proxy.ts).
 */
export function setFreshLoginMarker(req: NextRequest, res: NextResponse): void {
  res.cookies.set(FRESH_LOGIN_COOKIE, "1", markerCookieOptions(FRESH_LOGIN_COOKIE, usesSecureCookies(req.url)));
}
