import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { captureAuthError } from "@/lib/auth/auth-error-log";
import { classifyCallbackFailure } from "@/lib/auth/callback-failure";
import { safeRedirect } from "@/lib/auth/safe-redirect";
import { readSessionToken } from "@/lib/auth/session-cookie";
import { formatRestartLog, mayRestart, parseRestartLog, restartedEntry } from "@/lib/auth/restart-guard";
import { appOrigin, servesHttps } from "@/lib/app-origin";
import { FRESH_LOGIN_COOKIE, markerCookieOptions, RESTARTED_COOKIE } from "@/lib/auth/sign-in-markers";
import { requestTranslator } from "@/lib/i18n/request-translator";

const ERROR_PAGE = "/auth/error";

/** Auth.js's check cookies (`authjs.state`, `authjs.pkce.code_verifier`, with or without `__Secure-`). */
function hasSignInInProgress(req: NextRequest): boolean {
  return req.cookies.getAll().some((c) => /authjs\.(state|pkce\.code_verifier)$/.test(c.name));
}

/** Where the person was going (Auth.js keeps it in its callback-url cookie), as a same-origin path. */
function intendedPath(req: NextRequest): string {
  const cookie = req.cookies.getAll().find((c) => c.name.endsWith("authjs.callback-url"))?.value;
  if (!cookie) return "/account";
  const target = new URL(safeRedirect(cookie, appOrigin(req)));
  return target.pathname === "/" && !target.search ? "/account" : `${target.pathname}${target.search}`;
}

/** A marker to set to `value`, or to delete when `value` is undefined. */
type MarkerChange = { name: typeof RESTARTED_COOKIE | typeof FRESH_LOGIN_COOKIE; value?: string };

/**
 * A redirect carrying Auth.js's cookies (the new session, deleted check cookies) plus our marker
 * changes. The markers go first: `res.cookies` rewrites every Set-Cookie header it did not create.
 */
function redirectKeepingCookies(from: Response, to: URL, secure: boolean, markers: MarkerChange[] = []): NextResponse {
  const res = NextResponse.redirect(to);
  for (const { name, value } of markers) {
    res.cookies.set(name, value ?? "", { ...markerCookieOptions(name, secure), ...(value === undefined ? { maxAge: 0 } : {}) });
  }
  for (const cookie of from.headers.getSetCookie()) res.headers.append("set-cookie", cookie);
  return res;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Sends the browser on to `/auth/restart` from a page of the app itself rather than by a redirect: a
 * redirect would keep the callback's cross-site origin (the service's page sent it), and /auth/restart
 * acts only on a same-origin navigation, so that a link from another site cannot start a flow. The
 * refresh needs no script; the link is there for anyone whose browser does not follow it. In the page's language.
 */
async function continueToRestart(req: NextRequest, from: Response, to: URL, secure: boolean, markers: MarkerChange[]): Promise<NextResponse> {
  const href = escapeHtml(`${to.pathname}${to.search}`);
  const { locale, t } = await requestTranslator(req, "signingInAgain");
  const title = escapeHtml(t("title"));
  const page = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>${title}</title></head><body><main><p>${title}… <a href="${href}">${escapeHtml(t("continue"))}</a></p></main></body></html>`;
  const res = new NextResponse(page, {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "strict-origin" },
  });
  for (const { name, value } of markers) res.cookies.set(name, value ?? "", markerCookieOptions(name, secure));
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
 *    flow started later, e.g. in another tab) restarts sign-in; the service still has the person's
 *    session, so it is quick. At most once per flow and a few times in all (restart-guard.ts): a
 *    flow already restarted, or the flow the latest restart started failing on its own checks, ends
 *    on step 4. Each tab's flow is judged on its own, so whichever tab finishes while the other
 *    tab's restart is under way gets its own restart rather than the message.
 * 4. Otherwise the expired-link message, with a Sign in button.
 *
 * A successful sign-in clears both sign-in markers (see sign-in-markers.ts).
 */
export async function handleCallback(req: NextRequest, run: (req: NextRequest) => Promise<Response>): Promise<Response> {
  const { result, error } = await captureAuthError(() => run(req));
  const origin = appOrigin(req);
  const secure = servesHttps(req);

  if (!isErrorPageRedirect(result, origin)) {
    const location = result.headers.get("location");
    if (!location) return result;
    const cleared = ([RESTARTED_COOKIE, FRESH_LOGIN_COOKIE] as const).filter((name) => req.cookies.has(name));
    return redirectKeepingCookies(result, new URL(location, origin), secure, cleared.map((name) => ({ name })));
  }
  if (error === undefined || classifyCallbackFailure(error) === "configuration") return result;

  const session = await readSessionToken(req);
  if (session?.sessionHandle && !session.error) return redirectKeepingCookies(result, new URL(intendedPath(req), origin), secure);

  // The list stays after the message: other tabs' flows in it must not restart again either.
  const log = parseRestartLog(req.cookies.get(RESTARTED_COOKIE)?.value);
  const state = req.nextUrl.searchParams.get("state");
  if (hasSignInInProgress(req) && mayRestart(log, state)) {
    const restart = new URL("/auth/restart", origin);
    restart.searchParams.set("callbackUrl", intendedPath(req));
    return continueToRestart(req, result, restart, secure, [{ name: RESTARTED_COOKIE, value: formatRestartLog([...log, restartedEntry(state)]) }]);
  }
  return redirectKeepingCookies(result, new URL(`${ERROR_PAGE}?error=LinkExpired`, origin), secure);
}
