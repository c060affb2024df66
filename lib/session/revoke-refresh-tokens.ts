import "server-only";
import { getDiscovery } from "@/lib/auth/discovery";
import { revokeToken } from "@/lib/esign/client";

/**
 * Revokes refresh tokens at the service when discovery publishes a `revocation_endpoint` (RFC 7009): those of
 * ended sessions, and those a refresh obtained for a session that ended while it ran. Resolves how many the
 * service confirmed; never throws. Its own module, below the session store's, so that ending a session
 * (end-sessions.ts, above sessions.ts) and dropping kept tokens (unsaved-tokens.ts, below it) can both use it.
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
