import "server-only";
import { LOGOUT_TOKEN_ACCEPTANCE_WINDOW_MS, type LogoutClaims } from "@/lib/auth/logout-token";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { endSessions } from "@/lib/session/end-sessions";
import { sessionsOfOidcSid, sessionsOfSubject, type StoredSession } from "@/lib/session/sessions";
import { getSessionStore } from "@/lib/session/store-instance";
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
 * Carries out a verified logout token: looks up the sessions it names, claims its `jti` (a replay ends nothing),
 * then ends them without revoking at the service, which started this logout. Resolves `replayed` for a `jti`
 * already claimed. Throws SessionStoreUnavailableError when the store cannot answer. Claim and ending go
 * together: when ending fails the claim is given back, so the service's retry (the route answers 503, "may
 * retry") is carried out instead of refused as a replay.
 */
export async function endSessionsForLogoutToken(claims: LogoutClaims): Promise<{ replayed: boolean; ended: number }> {
  const sessions = await sessionsNamedBy(claims);
  if (!(await claimLogoutToken(claims.jti))) return { replayed: true, ended: 0 };
  try {
    const { ended } = await endSessions(sessions, "back-channel logout from the service", { revoke: false });
    return { replayed: false, ended };
  } catch (error) {
    await getSessionStore()
      .releaseClaim(storeName("logout-jti", claims.jti))
      .catch((releaseError: unknown) =>
        getLogger().error({
          msg: `back-channel logout: its sessions were not all ended and its jti could not be given back, so a retry will be refused as a replay: ${releaseError instanceof Error ? releaseError.message : String(releaseError)}`,
          requestId: currentRequestId(),
        }),
      );
    throw error;
  }
}
