import "server-only";
import type { NextRequest } from "next/server";
import { AppError, sessionExpiredError, sessionStoreUnavailableError } from "@/lib/errors";
import { readSessionToken } from "@/lib/auth/session-cookie";
import { resolveSession, shouldRefresh } from "@/lib/session/current-session";
import { accessTokenState, type SessionRecord } from "@/lib/session/session-record";

const notSignedIn = () => new AppError("UNAUTHENTICATED", 401, "You are not signed in.");

/**
 * The live server-side session behind a request's cookie, for a route handler: 401 when there is none (never
 * signed in, or ended: signed out, timed out, ended from another device or by the service), 503 while the
 * session store cannot be reached. proxy.ts has already refreshed due tokens; this reads the refreshed session.
 */
export async function requireSession(req: NextRequest): Promise<{ id: string; record: SessionRecord }> {
  const token = await readSessionToken(req);
  if (!token) throw notSignedIn();
  // A cookie from before server-side sessions, tokens inside: sign in again.
  if (!token.sessionHandle) throw sessionExpiredError();
  const state = await resolveSession(token.sessionHandle, shouldRefresh(req.headers));
  if (state.status === "unavailable") throw sessionStoreUnavailableError();
  if (state.status === "ended") throw notSignedIn();
  return state;
}

/** The access token of the request's session, for a route handler to call the service with. */
export async function requireAccessToken(req: NextRequest): Promise<string> {
  return accessTokenOf((await requireSession(req)).record);
}

/** The access token of a live session (requireSession's): 401 when it has expired, 503 while its refresh is deferred. */
export function accessTokenOf(record: SessionRecord): string {
  const token = accessTokenState(record);
  if (token.status === "expired") throw sessionExpiredError();
  if (token.status === "deferred") {
    // The refresh was deferred: the token endpoint could not be reached, or refused the app's own client (a configuration fault).
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      503,
      "We could not renew your session with the e-signature service just now. Please try again shortly.",
    );
  }
  return token.accessToken;
}
