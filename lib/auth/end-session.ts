import "server-only";
import { headers } from "next/headers";
import { getToken } from "next-auth/jwt";
import { appOrigin } from "@/lib/app-origin";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import type { SessionToken } from "@/lib/auth/session-token";

const DISCOVERY_TTL_MS = 5 * 60_000;
let endpoint: { value: string | null; until: number } | undefined;

/**
 * The service's `end_session_endpoint` (OIDC RP-Initiated Logout), if its discovery document
 * publishes one. The spec names no such operation, so sign-out must work without it: any failure
 * here means "none" and is remembered briefly so that a slow auth server does not slow every sign-out.
 */
async function findEndSessionEndpoint(): Promise<string | null> {
  if (endpoint && endpoint.until > Date.now()) return endpoint.value;
  let value: string | null = null;
  try {
    const response = await fetch(`${getConfig().authUrl}/.well-known/openid-configuration`, {
      cache: "no-store",
      signal: AbortSignal.timeout(3_000),
    });
    const body = response.ok ? ((await response.json()) as { end_session_endpoint?: unknown }) : {};
    if (typeof body.end_session_endpoint === "string" && URL.canParse(body.end_session_endpoint)) value = body.end_session_endpoint;
  } catch (error) {
    getLogger().warn(`end_session_endpoint not known, signing out of the app only: ${error instanceof Error ? error.message : String(error)}`);
  }
  endpoint = { value, until: Date.now() + DISCOVERY_TTL_MS };
  return value;
}

/**
 * Where to send the browser after the app's own sign-out so that the service ends its session too:
 * the end-session endpoint with `id_token_hint` (read from the encrypted session cookie, where the
 * id_token stays) and the app's start page as `post_logout_redirect_uri`, which must be registered
 * with the service. Null when the service publishes no endpoint or the session holds no id_token.
 * Call before the app's own sign-out clears the cookie.
 */
export async function endSessionUrl(): Promise<string | null> {
  const requestHeaders = await headers();
  const origin = appOrigin({ headers: requestHeaders });
  const token = (await getToken({
    req: { headers: requestHeaders },
    secret: getConfig().authSecrets,
    secureCookie: origin.startsWith("https:"),
  })) as SessionToken | null;
  if (!token?.idToken) return null;
  const found = await findEndSessionEndpoint();
  if (!found) return null;
  const url = new URL(found);
  url.searchParams.set("id_token_hint", token.idToken);
  url.searchParams.set("client_id", getConfig().clientId);
  url.searchParams.set("post_logout_redirect_uri", `${origin}/`);
  return url.href;
}
