import "server-only";
import type { NextRequest } from "next/server";
import { AppError, sessionExpiredError } from "@/lib/errors";
import { readSessionToken } from "@/lib/auth/session-cookie";
import { isAccessTokenExpired } from "@/lib/auth/session-token";

/**
 * The access token of the request's session, for a route handler to call the service with.
 * proxy.ts has already refreshed it if it was due; this only reads the (possibly rewritten) cookie.
 */
export async function requireAccessToken(req: NextRequest): Promise<string> {
  const token = await readSessionToken(req);
  if (!token) throw new AppError("UNAUTHENTICATED", 401, "You are not signed in.");
  if (token.error || !token.accessToken) {
    throw sessionExpiredError();
  }
  if (isAccessTokenExpired(token)) {
    // The refresh was deferred because the token endpoint could not be reached.
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      503,
      "We could not renew your session with the e-signature service just now. Please try again shortly.",
    );
  }
  return token.accessToken;
}
