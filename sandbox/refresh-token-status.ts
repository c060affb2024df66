import type Provider from "oidc-provider";
import type { IssuedTokens } from "./issued-tokens";
import type { Revocations } from "./revocations";

/**
 * active: usable now. consumed: rotated by a refresh (presenting it again is reuse). revoked: issued here but no
 * longer valid — revoked at /connect/revocation (`revokedAtEndpoint`), its grant ended by reuse or sign-out,
 * or expired. unknown: never issued by this sandbox.
 */
export type RefreshTokenState = "active" | "consumed" | "revoked" | "unknown";

export async function refreshTokenStatus(
  provider: Provider,
  issued: IssuedTokens,
  revocations: Revocations,
  value: string,
): Promise<{ status: RefreshTokenState; revokedAtEndpoint: boolean }> {
  const token = await provider.RefreshToken.find(value);
  const revokedAtEndpoint = revocations.has(value);
  if (token) return { status: token.consumed ? "consumed" : "active", revokedAtEndpoint };
  return { status: issued.has(value) ? "revoked" : "unknown", revokedAtEndpoint };
}
