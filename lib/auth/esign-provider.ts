import "server-only";
import type { OIDCConfig } from "next-auth/providers";
import type { AppConfig } from "@/lib/env";

type EsignIdTokenClaims = { sub: string; name?: string; email?: string };

/**
 * The service's OAuth 2.0 / OpenID provider: endpoints as the spec names them, with state, PKCE (S256)
 * and nonce on every sign-in, for the confidential client too (RFC 9700 §2.1.1).
 */
export function esignProvider(config: AppConfig): OIDCConfig<EsignIdTokenClaims> {
  return {
    id: "esign",
    name: "eSign",
    type: "oidc",
    // Exactly as configured: oauth4webapi compares it with the id_token's `iss` character for character.
    issuer: config.issuer,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    client: { token_endpoint_auth_method: config.tokenAuthMethod },
    authorization: {
      url: `${config.authUrl}/connect/authorize`,
      params: { scope: config.scopes, response_mode: "query" },
    },
    token: `${config.authUrl}/connect/token`,
    checks: ["pkce", "state", "nonce"],
    profile(claims) {
      return { id: claims.sub, name: claims.name ?? claims.email ?? null, email: claims.email ?? null };
    },
  };
}
