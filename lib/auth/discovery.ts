import "server-only";
import * as oauth from "oauth4webapi";
import { getConfig } from "@/lib/env";
import { oauthRequestOptions } from "@/lib/esign/token-endpoint";

/** The parts of the service's OpenID discovery document the app uses. */
export type Discovery = {
  issuer: string;
  jwks_uri: string;
  end_session_endpoint?: string;
  revocation_endpoint?: string;
};

const DISCOVERY_TTL_MS = 5 * 60_000;
const DISCOVERY_TIMEOUT_MS = 10_000;
let cached: { value: Promise<Discovery>; until: number } | undefined;

async function fetchDiscovery(issuer: string): Promise<Discovery> {
  // oauth4webapi, as Auth.js reads it at sign-in: the document must name exactly the configured issuer.
  const expected = new URL(issuer);
  const response = await oauth.discoveryRequest(expected, { algorithm: "oidc", ...oauthRequestOptions("discovery", DISCOVERY_TIMEOUT_MS) });
  const body = await oauth.processDiscoveryResponse(expected, response);
  if (typeof body.jwks_uri !== "string") throw new Error("discovery document lacks jwks_uri");
  const url = (value: unknown) => (typeof value === "string" && URL.canParse(value) ? value : undefined);
  return {
    issuer: body.issuer,
    jwks_uri: body.jwks_uri,
    end_session_endpoint: url(body.end_session_endpoint),
    revocation_endpoint: url(body.revocation_endpoint),
  };
}

/**
 * The service's discovery document, the app's one copy (id_token and logout token keys, end session, revocation),
 * fetched at most once per five minutes (a failure is not remembered, so the next caller tries again).
 * Deadline 10 s. Measured as the `discovery` call.
 */
export function getDiscovery(): Promise<Discovery> {
  if (cached && cached.until > Date.now()) return cached.value;
  const value = fetchDiscovery(getConfig().issuer);
  cached = { value, until: Date.now() + DISCOVERY_TTL_MS };
  value.catch(() => {
    if (cached?.value === value) cached = undefined;
  });
  return value;
}
