import "server-only";
import { customFetch } from "next-auth";
import type { OIDCConfig } from "next-auth/providers";
import type { AppConfig } from "@/lib/env";
import { fetchFromService } from "@/lib/esign/http";
import { withUsableExpiresIn } from "@/lib/esign/token-endpoint";
import type { ServiceOperation } from "@/lib/metrics/service-calls";

type EsignIdTokenClaims = { sub: string; name?: string; email?: string };

/** Auth.js calls the token endpoint only for the authorization-code exchange; the rest is discovery and keys. */
function operationOf(url: URL): ServiceOperation {
  if (url.pathname.endsWith("/token")) return "token";
  if (url.pathname.endsWith("/userinfo")) return "getuserinfo";
  if (url.pathname.endsWith("/revocation")) return "revocation";
  return "discovery";
}

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
    // Auth.js's own calls (discovery, the code exchange) are measured and traced like the app's; the code
    // exchange's answer keeps its tokens whatever its expires_in (token-endpoint.ts).
    [customFetch]: async (input: string | URL | Request, init?: RequestInit) => {
      const operation = operationOf(new URL(input instanceof Request ? input.url : input));
      const response = await fetchFromService(operation, input, init);
      return operation === "token" ? withUsableExpiresIn(response) : response;
    },
    profile(claims) {
      return { id: claims.sub, name: claims.name ?? claims.email ?? null, email: claims.email ?? null };
    },
  };
}
