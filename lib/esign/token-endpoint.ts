import "server-only";
import * as oauth from "oauth4webapi";
import { getConfig } from "@/lib/env";
import { fetchFromService } from "@/lib/esign/http";
import { usableExpiresIn } from "@/lib/esign/schemas";
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
    [oauth.customFetch]: async (url: string, init: RequestInit) => {
      const response = await fetchFromService(operation, url, { ...init, cache: "no-store" });
      return operation === "refresh" ? withUsableExpiresIn(response) : response;
    },
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

/**
 * A token endpoint's 200 as oauth4webapi should read it: an `expires_in` that is not a positive whole number of
 * seconds (schemas.ts, usableExpiresIn) is left out, and numeric text becomes a number. oauth4webapi refuses null
 * and negative values ("must be a number"), which would throw away tokens the service has already issued, its
 * refresh token rotated; without `expires_in` the lifetime comes from the token itself (token-lifetime.ts). Any
 * other answer is returned untouched, for oauth4webapi to judge.
 */
export async function withUsableExpiresIn(response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  let body: unknown;
  try {
    body = JSON.parse(await response.clone().text());
  } catch {
    return response;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("expires_in" in body)) return response;
  const { expires_in: given, ...rest } = body as Record<string, unknown>;
  const usable = usableExpiresIn(given);
  if (usable === given) return response;
  const headers = new Headers(response.headers);
  // The body is re-encoded: its length changes, and fetch has already decoded any content encoding.
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(JSON.stringify(usable === undefined ? rest : { ...rest, expires_in: usable }), { status: 200, statusText: response.statusText, headers });
}
