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
  await Promise.all(sessions.map((s) => deleteSession(s.id)));
  const refreshTokens = revoke ? sessions.map((s) => s.record.refreshToken).filter((t): t is string => Boolean(t)) : [];
  let revoked = 0;
  if (refreshTokens.length > 0) {
    const endpoint = await getDiscovery().then(
      (d) => d.revocation_endpoint,
      () => undefined,
    );
    if (endpoint) revoked = (await Promise.all(refreshTokens.map((t) => revokeToken(endpoint, t, "refresh_token")))).filter(Boolean).length;
  }
  getLogger().info({ msg: `${sessions.length} session(s) ended (${why}), ${revoked} refresh token(s) revoked`, requestId: currentRequestId() });
  return { ended: sessions.length, revoked };
}
