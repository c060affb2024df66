import "server-only";
import * as oauth from "oauth4webapi";
import { getConfig } from "@/lib/env";
import { fetchFromService } from "@/lib/esign/http";
import type { ServiceOperation } from "@/lib/metrics/service-calls";

/**
 * The app as an OAuth client of the service, for oauth4webapi (the library Auth.js uses for the sign-in): its id
 * and how it authenticates at the token and revocation endpoints, as configured.
 */
export function oauthClient(): { client: oauth.Client; authentication: oauth.ClientAuth; extraParameters: Record<string, string> } {
  const { clientId, clientSecret, tokenAuthMethod } = getConfig();
  const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: tokenAuthMethod };
  if (clientSecret && tokenAuthMethod === "client_secret_post") return { client, authentication: oauth.ClientSecretPost(clientSecret), extraParameters: {} };
  if (clientSecret && tokenAuthMethod === "client_secret_basic") {
    // The spec lists client_id as a form field of the refresh; with Basic the library puts it in the header only.
    return { client, authentication: oauth.ClientSecretBasic(clientSecret), extraParameters: { client_id: clientId } };
  }
  return { client, authentication: oauth.None(), extraParameters: {} };
}

/**
 * Request options for one oauth4webapi call: through fetchFromService (request id, metrics, tracing) under
 * `operation`, with the app's request deadline. Plain http is allowed here because lib/env.ts decides which
 * service URLs a deployment may use (the sandbox and a local service are http).
 */
export function oauthRequestOptions(operation: ServiceOperation, timeoutMs = getConfig().requestTimeoutMs) {
  return {
    [oauth.customFetch]: (url: string, init: RequestInit) => fetchFromService(operation, url, { ...init, cache: "no-store" }),
    [oauth.allowInsecureRequests]: true,
    signal: AbortSignal.timeout(timeoutMs),
  };
}

/**
 * The service as oauth4webapi's authorization server for the refresh grant: the token endpoint is the spec's
 * `{auth_url}/connect/token`, not discovery's, so that a refresh does not depend on the discovery document.
 */
export function tokenEndpointServer(): oauth.AuthorizationServer {
  const { issuer, authUrl } = getConfig();
  return { issuer, token_endpoint: `${authUrl}/connect/token` };
}
