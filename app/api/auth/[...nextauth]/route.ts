import { NextResponse, type NextRequest } from "next/server";
import { handlers } from "@/auth";
import { handleCallback } from "@/lib/auth/callback-recovery";
import { SIGN_IN_BUDGET_SPENT_PATH, spendSignInBudget } from "@/lib/auth/start-sign-in";
import { CLIENT_ADDRESS_HEADER } from "@/lib/rate-limit/client-address";

/**
 * Auth.js's routes. A refusal at the service's consent screen comes back as `error=access_denied`;
 * Auth.js would report it as a generic callback failure, so it is sent to our error page by name.
 * Other callback failures are told apart in `handleCallback`.
 */
export async function GET(req: NextRequest) {
  if (!req.nextUrl.pathname.endsWith("/callback/esign")) return handlers.GET(req);
  if (req.nextUrl.searchParams.get("error") === "access_denied") {
    return NextResponse.redirect(new URL("/auth/error?error=AccessDenied", req.nextUrl.origin));
  }
  return handleCallback(req, handlers.GET);
}

/**
 * Auth.js's POSTs. A sign-in started here (`/api/auth/signin/esign`, which a script can call with the CSRF token
 * from `/api/auth/csrf`) spends the same per-address "sign-in" budget as the Sign in button.
 */
export async function POST(req: NextRequest) {
  if (req.nextUrl.pathname.includes("/signin/") && !(await spendSignInBudget(req.headers.get(CLIENT_ADDRESS_HEADER)))) {
    return NextResponse.redirect(new URL(SIGN_IN_BUDGET_SPENT_PATH, req.nextUrl.origin), 303);
  }
  return handlers.POST(req);
}
