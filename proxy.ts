import { NextResponse, type NextRequest } from "next/server";
import { userKeyFor } from "@/lib/auth/user-key";
import { getConfig } from "@/lib/env";
import { recordRateLimited } from "@/lib/metrics/rate-limits";
import { getRateLimiter } from "@/lib/rate-limit/budgets";
import type { LimitName } from "@/lib/rate-limit/policies";
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
 * 4. Spends the user's "document-page" budget for a document's page ("operator-pages" for the operator's), and
 *    answers 429 once it is spent: a page cannot set its own status, and here the page's database read has not
 *    happened yet.
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

  const budgeted = state?.status === "active" && req.method === "GET" && !req.headers.has("next-router-prefetch") ? budgetedPageOf(req.nextUrl.pathname) : undefined;
  if (state?.status === "active" && budgeted) {
    const decision = await getRateLimiter().consume(budgeted.name, userKeyFor(config.issuer, state.record.subject));
    if (!decision.allowed) {
      recordRateLimited(budgeted.route, budgeted.name);
      const res = await tooManyRequestsPage(req, decision);
      res.headers.set("content-security-policy", csp);
      return res;
    }
  }

  const headers = new Headers(req.headers);
  headers.set("content-security-policy", csp);
  headers.set(SESSION_REFRESHED_HEADER, "1");
  const ended = state?.status === "ended";
  const reEncrypted = token && underOldSecret && !ended ? await encodeSessionToken(req, token) : null;
  if (ended) headers.set("cookie", cookieHeaderWithSession(req, null));
  else if (reEncrypted) headers.set("cookie", cookieHeaderWithSession(req, reEncrypted));

  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  if (ended) clearSessionCookie(req, res);
  else if (reEncrypted) setSessionCookie(req, res, reEncrypted);
  return res;
}

/**
 * The pages that read records, each with its budget: a document's page, and the operator's pages (read across every
 * user's records; a non-operator spends the budget too, before the page answers 404). Prefetches
 * (`next-router-prefetch`) are not counted: the app's links send none (components/ui/link.tsx), but a tab opened
 * before that change may, and a prefetch of these dynamic pages renders no page segment, so it reads no record.
 */
const BUDGETED_PAGES: { pattern: RegExp; name: LimitName; route: string }[] = [
  { pattern: /^\/documents\/[^/]+$/, name: "document-page", route: "/documents/:itemId" },
  { pattern: /^\/operator(\/.*)?$/, name: "operator-pages", route: "/operator" },
];

function budgetedPageOf(pathname: string) {
  return BUDGETED_PAGES.find((page) => page.pattern.test(pathname));
}

export const config = {
  // Auth.js's own routes read the session through their jwt callback. Health probes carry no session and
  // render no HTML: neither the session nor CSP applies to them.
  matcher: ["/((?!api/auth/|api/health|_next/static|_next/image|favicon.ico|robots.txt|brand/).*)"],
};
