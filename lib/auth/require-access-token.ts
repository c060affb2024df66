import "server-only";
import type { NextRequest } from "next/server";
import { AppError, sessionExpiredError, sessionStoreUnavailableError } from "@/lib/errors";
import { readSessionToken } from "@/lib/auth/session-cookie";
import { refundUserBudget, spendUserBudget } from "@/lib/rate-limit/budgets";
import type { LimitName } from "@/lib/rate-limit/policies";
import { resolveSession, shouldRefresh } from "@/lib/session/current-session";
import { accessTokenState, type SessionRecord } from "@/lib/session/session-record";

const notSignedIn = () => new AppError("UNAUTHENTICATED", 401, "You are not signed in.");

/**
 * The live server-side session behind a request's cookie, for a route handler: 401 when there is none (never
 * signed in, or ended: signed out, timed out, ended from another device or by the service), 503 while the
 * session store cannot be reached. proxy.ts has already refreshed due tokens; this reads the refreshed session.
 *
 * With `budget`, it also spends one request of that budget for the session's user, and throws the 429 once it is
 * spent (after the 401 and 503 above). The sealed cookie names the user, so the spend goes out beside the session
 * read: with Redis, both in one round trip instead of one after the other. A spend for a session that turned out
 * to have ended is given back, so an old cookie cannot use up its user's budget.
 */
export async function requireSession(req: NextRequest, budget?: LimitName): Promise<LiveSession> {
  const token = await readSessionToken(req);
  if (!token) throw notSignedIn();
  // A cookie from before server-side sessions, tokens inside: sign in again.
  if (!token.sessionHandle) throw sessionExpiredError();
  const spend = budget && token.sub ? spendBeside(budget, token.sub) : undefined;
  const session = await readLiveSession(token.sessionHandle, req).catch(async (error: unknown) => {
    await spend?.refund();
    throw error;
  });
  if (spend) await spend.keep();
  // A cookie without a subject: the session's record names the user, so the spend waits for the read.
  else if (budget) await spendUserBudget(budget, session.record.subject);
  return session;
}

type LiveSession = { id: string; record: SessionRecord };

/** The session behind `handle` when it is live: 503 while the store cannot be reached, 401 once it has ended. */
async function readLiveSession(handle: string, req: NextRequest): Promise<LiveSession> {
  const state = await resolveSession(handle, shouldRefresh(req.headers));
  if (state.status === "unavailable") throw sessionStoreUnavailableError();
  if (state.status === "ended") throw notSignedIn();
  return state;
}

/**
 * One request of `budget` spent for `subject` while the session is read. `keep` throws what the spend threw (the
 * 429 of a spent budget); `refund` gives the request back if it was taken, for a session that turned out not live.
 */
function spendBeside(budget: LimitName, subject: string): { keep: () => Promise<void>; refund: () => Promise<void> } {
  const failure = spendUserBudget(budget, subject).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  return {
    keep: async () => {
      const failed = await failure;
      if (failed) throw failed.error;
    },
    refund: async () => {
      if (!(await failure)) await refundUserBudget(budget, subject);
    },
  };
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
