import type { AuthMethod, SandboxConfig } from "./config";

export interface RegisteredClient {
  clientId: string;
  authMethod: AuthMethod;
  /** Whether the client may hold refresh tokens (offline_access). */
  refreshTokens: boolean;
  /** Scopes the client may be granted. */
  scope: string[];
  metadata: Record<string, unknown>;
}

/**
 * The two clients of the spec: the registered partner app (confidential by default, refresh tokens) and the
 * shared development client (public, PKCE required, no refresh tokens). Both are registered under the app's
 * display name (`client_name`), which the sign-in, consent and sign-out pages show instead of the id.
 */
export function buildClients(config: SandboxConfig, backchannelLogoutUri = config.backchannelLogoutUri): RegisteredClient[] {
  const partnerScope = ["openid", "profile", "email", "service.app", "service.api", "offline_access"];
  const devScope = ["openid", "email", "service.api"];
  // RP-initiated logout returns to the start page of each app that may sign in.
  const postLogoutRedirectUris = [...new Set(config.redirectUris.map((uri) => `${new URL(uri).origin}/`))];
  return [
    {
      clientId: config.partnerClientId,
      authMethod: config.partnerAuthMethod,
      refreshTokens: true,
      scope: partnerScope,
      metadata: {
        client_id: config.partnerClientId,
        client_name: config.clientName,
        ...(config.partnerAuthMethod === "none" ? {} : { client_secret: config.partnerClientSecret }),
        token_endpoint_auth_method: config.partnerAuthMethod,
        redirect_uris: config.redirectUris,
        post_logout_redirect_uris: postLogoutRedirectUris,
        // OIDC Back-Channel Logout: the logout token must name the session (sid), as the app looks sessions up by it.
        backchannel_logout_uri: backchannelLogoutUri,
        backchannel_logout_session_required: true,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        scope: partnerScope.join(" "),
      },
    },
    {
      clientId: config.devClientId,
      authMethod: "none",
      refreshTokens: false,
      scope: devScope,
      metadata: {
        client_id: config.devClientId,
        client_name: config.clientName,
        token_endpoint_auth_method: "none",
        redirect_uris: config.redirectUris,
        post_logout_redirect_uris: postLogoutRedirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        scope: devScope.join(" "),
      },
    },
  ];
}
