import { NextResponse, type NextRequest } from "next/server";
import { handlers } from "@/auth";

/**
 * Auth.js's routes. A refusal at the service's consent screen comes back as `error=access_denied`;
 * Auth.js would report it as a generic callback failure, so it is sent to our error page by name.
 */
export async function GET(req: NextRequest) {
  if (req.nextUrl.pathname.endsWith("/callback/esign") && req.nextUrl.searchParams.get("error") === "access_denied") {
    return NextResponse.redirect(new URL("/auth/error?error=AccessDenied", req.nextUrl.origin));
  }
  return handlers.GET(req);
}

export const { POST } = handlers;
