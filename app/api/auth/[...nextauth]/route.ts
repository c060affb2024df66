import { NextResponse, type NextRequest } from "next/server";
import { handlers } from "@/auth";
import { handleCallback } from "@/lib/auth/callback-recovery";

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

export const { POST } = handlers;
