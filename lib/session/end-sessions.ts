import "server-only";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { revokeRefreshTokens } from "@/lib/session/revoke-refresh-tokens";
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
