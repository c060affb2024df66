import { NextResponse, type NextRequest } from "next/server";
import { userKeyFor } from "@/lib/auth/user-key";
import { getConfig } from "@/lib/env";
import { toErrorResponse } from "@/lib/errors";
import { routeLabel } from "@/lib/metrics/http-requests";
import { recordRateLimited } from "@/lib/metrics/rate-limits";
import { operatorOf } from "@/lib/operators/operator-access";
import { getRateLimiter, rateLimitedError } from "@/lib/rate-limit/budgets";
import { proxyBudgetOf } from "@/lib/rate-limit/proxy-budgets";
import { UNKNOWN_PATH } from "@/lib/routes/app-routes";
import { tooManyRequestsPage } from "@/lib/rate-limit/too-many-requests-page";
import { clearSessionCookie, cookieHeaderWithSession, encodeSessionToken, readSessionTokenState, setSessionCookie } from "@/lib/auth/session-cookie";
import { buildContentSecurityPolicy, createNonce } from "@/lib/security/content-security-policy";
import { resolveSession, SESSION_REFRESHED_HEADER } from "@/lib/session/current-session";
import { sessionStoreUnavailableResponse } from "@/lib/session/unavailable-response";

/**
 * Runs before every page and route handler (Auth.js's own routes excluded):
 *
 * 1. Reads the server-side session behind the cookie and refreshes its tokens when due, so the page or route
 *    handler behind it finds them fresh. The cookie holds only a handle, so a refresh never rewrites it.
 *    A session that has ended loses its cookie here, so the page renders signed out; while the session store
 *    cannot be reached the request gets a 503 instead, and nobody is signed out.
 * 2. Re-encrypts a cookie only a previous AUTH_SECRET opens under the current one (rotation).
 * 3. Sets a Content-Security-Policy with a per-request nonce; Next reads it from the request headers
 *    and puts the nonce on its own scripts.
 * 4. Spends the budget of the page a signed-in user asks for, whatever the method (lib/rate-limit/proxy-budgets.ts),
 *    and answers 429 once it is spent: a page cannot set its own status, and here the page's reads and calls have not
 *    happened yet. Route handlers spend their own, except the operator routes: their budget is spent here, before the
 *    operator check, and anyone but an operator is then answered as for a path that does not exist.
 */
export async function proxy(req: NextRequest) {
  const config = getConfig();
  const nonce = createNonce();
  const csp = buildContentSecurityPolicy({
    nonce,
    authOrigin: new URL(config.authUrl).origin,
    storageOrigins: config.storageOrigins,
    imageOrigins: config.brand.logo?.src.startsWith("https:") ? [new URL(config.brand.logo.src).origin] : [],
    development: process.env.NODE_ENV === "development",
  });

  const { token, underOldSecret } = await readSessionTokenState(req);
  const state = token?.sessionHandle ? await resolveSession(token.sessionHandle, true) : undefined;
  if (state?.status === "unavailable") {
    const res = await sessionStoreUnavailableResponse(req);
    res.headers.set("content-security-policy", csp);
    return res;
  }

  const budget = proxyBudgetOf(req.nextUrl.pathname);
  if (state?.status === "active" && budget) {
    const decision = await getRateLimiter().consume(budget.name, userKeyFor(config.issuer, state.record.subject));
    if (!decision.allowed) {
      recordRateLimited(routeLabel(req.nextUrl.pathname), budget.name);
      const res = budget.operatorOnly ? toErrorResponse(rateLimitedError(decision)) : await tooManyRequestsPage(req, decision);
      res.headers.set("content-security-policy", csp);
      return res;
    }
  }
  const refusedOperatorRoute = budget?.operatorOnly && !(state?.status === "active" && (await operatorOf(state.record.subject).catch(() => null)));

  const headers = new Headers(req.headers);
  headers.set("content-security-policy", csp);
  headers.set(SESSION_REFRESHED_HEADER, "1");
  const ended = state?.status === "ended";
  const reEncrypted = token && underOldSecret && !ended ? await encodeSessionToken(req, token) : null;
  if (ended) headers.set("cookie", cookieHeaderWithSession(req, null));
  else if (reEncrypted) headers.set("cookie", cookieHeaderWithSession(req, reEncrypted));

  const res = refusedOperatorRoute ? NextResponse.rewrite(new URL(UNKNOWN_PATH, req.url), { request: { headers } }) : NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  if (ended) clearSessionCookie(req, res);
  else if (reEncrypted) setSessionCookie(req, res, reEncrypted);
  return res;
}

export const config = {
  // Auth.js's own routes read the session through their jwt callback. Health probes carry no session and
  // render no HTML: neither the session nor CSP applies to them.
  matcher: ["/((?!api/auth/|api/health|_next/static|_next/image|favicon.ico|robots.txt|brand/).*)"],
};
