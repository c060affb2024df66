import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { captureAuthError } from "@/lib/auth/auth-error-log";
import { classifyCallbackFailure } from "@/lib/auth/callback-failure";
import { safeRedirect } from "@/lib/auth/safe-redirect";
import { readSessionToken } from "@/lib/auth/session-cookie";
import { FRESH_LOGIN_COOKIE, markerCookieOptions, RESTARTED_COOKIE, usesSecureCookies } from "@/lib/auth/sign-in-markers";

const ERROR_PAGE = "/auth/error";

/** Auth.js's check cookies (`authjs.state`, `authjs.pkce.code_verifier`, with or without `__Secure-`). */
function hasSignInInProgress(req: NextRequest): boolean {
  return req.cookies.getAll().some((c) => /authjs\.(state|pkce\.code_verifier)$/.test(c.name));
}

/** Where the person was going (Auth.js keeps it in its callback-url cookie), as a same-origin path. */
function intendedPath(req: NextRequest): string {
  const cookie = req.cookies.getAll().find((c) => c.name.endsWith("authjs.callback-url"))?.value;
  if (!cookie) return "/account";
  const target = new URL(safeRedirect(cookie, req.nextUrl.origin));
  return target.pathname === "/" && !target.search ? "/account" : `${target.pathname}${target.search}`;
}

type MarkerChange = { name: typeof RESTARTED_COOKIE | typeof FRESH_LOGIN_COOKIE; set: boolean };

/**
 * A redirect carrying Auth.js's cookies (the new session, deleted check cookies) plus our marker
 * changes. The markers go first: `res.cookies` rewrites every Set-Cookie header it did not create.
 */
function redirectKeepingCookies(from: Response, to: URL, secure: boolean, markers: MarkerChange[] = []): NextResponse {
  const res = NextResponse.redirect(to);
  for (const { name, set } of markers) {
    res.cookies.set(name, set ? "1" : "", { ...markerCookieOptions(name, secure), ...(set ? {} : { maxAge: 0 }) });
  }
  for (const cookie of from.headers.getSetCookie()) res.headers.append("set-cookie", cookie);
  return res;
}

function isErrorPageRedirect(res: Response, origin: string): boolean {
  const location = res.headers.get("location");
  return location !== null && new URL(location, origin).pathname === ERROR_PAGE;
}

/**
 * Runs Auth.js's callback and, when it fails, answers as a person needs rather than with Auth.js's
 * blanket `error=Configuration`:
 *
 * 1. A real configuration problem keeps Auth.js's answer (administrator message, logged as an error).
 * 2. A stale callback while a session exists (the back button to a used callback URL, the slower of
 *    two tabs) lands on the app: there is nothing to fix.
 * 3. A stale callback while this browser has a sign-in in progress (its check cookies belong to a
 *    flow started later, e.g. in another tab) restarts sign-in once; the service still has the
 *    person's session, so it is quick. A second failure within the restart's window ends on step 4.
 * 4. Otherwise the expired-link message, with a Sign in button.
 *
 * A successful sign-in clears both sign-in markers (see sign-in-markers.ts).
 */
export async function handleCallback(req: NextRequest, run: (req: NextRequest) => Promise<Response>): Promise<Response> {
  const { result, error } = await captureAuthError(() => run(req));
  const origin = req.nextUrl.origin;
  const secure = usesSecureCookies(req.nextUrl.href);

  if (!isErrorPageRedirect(result, origin)) {
    const location = result.headers.get("location");
    if (!location) return result;
    const cleared = ([RESTARTED_COOKIE, FRESH_LOGIN_COOKIE] as const).filter((name) => req.cookies.has(name));
    return redirectKeepingCookies(result, new URL(location, origin), secure, cleared.map((name) => ({ name, set: false })));
  }
  if (error === undefined || classifyCallbackFailure(error) === "configuration") return result;

  const session = await readSessionToken(req);
  if (session && !session.error) return redirectKeepingCookies(result, new URL(intendedPath(req), origin), secure);

  const restarted = req.cookies.has(RESTARTED_COOKIE);
  if (hasSignInInProgress(req) && !restarted) {
    const restart = new URL("/auth/restart", origin);
    restart.searchParams.set("callbackUrl", intendedPath(req));
    return redirectKeepingCookies(result, restart, secure, [{ name: RESTARTED_COOKIE, set: true }]);
  }
  return redirectKeepingCookies(
    result,
    new URL(`${ERROR_PAGE}?error=LinkExpired`, origin),
    secure,
    restarted ? [{ name: RESTARTED_COOKIE, set: false }] : [],
  );
}
