import "server-only";
import { getDiscovery } from "@/lib/auth/discovery";
import { revokeToken } from "@/lib/esign/client";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { deleteSession, type StoredSession } from "@/lib/session/sessions";

/**
 * Ends sessions: each is removed from the store first (the browser's next request is signed out, whatever the
 * service says), then its refresh token is revoked at the service when discovery publishes a
 * `revocation_endpoint` (RFC 7009), so the grant cannot be used again. `revoke: false` skips the revocation,
 * for a logout the service itself started (back-channel logout). Resolves how many tokens the service
 * confirmed revoked. Throws SessionStoreUnavailableError when the store cannot remove them.
 */
export async function endSessions(
  sessions: StoredSession[],
  why: string,
  { revoke = true }: { revoke?: boolean } = {},
): Promise<{ ended: number; revoked: number }> {
  const removed = await Promise.all(sessions.map((s) => deleteSession(s.id)));
  // The token each session held when it was removed: a refresh that wrote after the listing replaced the listed
  // one, which is spent. The listed one too, for a session that was already gone when removed.
  const held = sessions.flatMap((s, i) => [removed[i]?.refreshToken, s.record.refreshToken]);
  const refreshTokens = revoke ? [...new Set(held.filter((t): t is string => Boolean(t)))] : [];
  const revoked = await revokeRefreshTokens(refreshTokens);
  getLogger().info({ msg: `${sessions.length} session(s) ended (${why}), ${revoked} refresh token(s) revoked`, requestId: currentRequestId() });
  return { ended: sessions.length, revoked };
}

/**
 * Revokes refresh tokens at the service when discovery publishes a `revocation_endpoint` (RFC 7009): those of
 * ended sessions, and those a refresh obtained for a session that ended while it ran. Resolves how many the
 * service confirmed; never throws.
 */
export async function revokeRefreshTokens(refreshTokens: string[]): Promise<number> {
  if (refreshTokens.length === 0) return 0;
  const endpoint = await getDiscovery().then(
    (d) => d.revocation_endpoint,
    () => undefined,
  );
  if (!endpoint) return 0;
  return (await Promise.all(refreshTokens.map((t) => revokeToken(endpoint, t, "refresh_token")))).filter(Boolean).length;
}
