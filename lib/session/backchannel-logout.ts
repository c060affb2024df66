import "server-only";
import { LOGOUT_TOKEN_ACCEPTANCE_WINDOW_MS, LOGOUT_TOKEN_CLOCK_SKEW_SECONDS, type LogoutClaims } from "@/lib/auth/logout-token";
import { endSessions } from "@/lib/session/end-sessions";
import { getSessionStore, sessionsOfOidcSid, sessionsOfSubject, type StoredSession } from "@/lib/session/sessions";
import { storeName } from "@/lib/session/session-keys";

/**
 * True the first time a logout token's `jti` is presented within the token's acceptance window, false for a
 * replay. Kept in the session store, so every instance sees the claims of the others.
 */
export async function claimLogoutToken(jti: string): Promise<boolean> {
  return getSessionStore().claimOnce(storeName("logout-jti", jti), LOGOUT_TOKEN_ACCEPTANCE_WINDOW_MS);
}

/**
 * The sessions a logout token names (Back-Channel Logout 1.0, §2.7): with `sid`, those started under that
 * session of the service (and, when `sub` is given too, of that user); with `sub` alone, all of that user's.
 */
export async function sessionsNamedBy(claims: Pick<LogoutClaims, "sub" | "sid">): Promise<StoredSession[]> {
  if (claims.sid) {
    const sessions = await sessionsOfOidcSid(claims.sid);
    return claims.sub ? sessions.filter((s) => s.record.subject === claims.sub) : sessions;
  }
  return claims.sub ? sessionsOfSubject(claims.sub) : [];
}

/**
 * Carries out a verified logout token: ends the sessions it names that began before it was issued (plus the
 * allowed clock skew) without revoking at the service, which started this logout, then claims its `jti`.
 * Claiming last keeps the two together: when the store fails while ending them (SessionStoreUnavailableError,
 * answered 503 "may retry") the `jti` is not spent, so the service's retry is carried out, not refused as a
 * replay. A replay then finds nothing to end: what the token named began before it, and was ended the first time;
 * a sign-in since is not the token's to end. Resolves `replayed` for a `jti` claimed before.
 */
export async function endSessionsForLogoutToken(claims: LogoutClaims): Promise<{ replayed: boolean; ended: number }> {
  const issuedBy = (claims.iat + LOGOUT_TOKEN_CLOCK_SKEW_SECONDS) * 1000;
  const sessions = (await sessionsNamedBy(claims)).filter((s) => s.envelope.createdAt <= issuedBy);
  const { ended } = await endSessions(sessions, "back-channel logout from the service", { revoke: false });
  if (!(await claimLogoutToken(claims.jti))) return { replayed: true, ended };
  return { replayed: false, ended };
}
