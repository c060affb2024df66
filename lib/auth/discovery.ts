import "server-only";
import { getConfig } from "@/lib/env";

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

async function fetchDiscovery(authUrl: string): Promise<Discovery> {
  const response = await fetch(`${authUrl}/.well-known/openid-configuration`, { cache: "no-store", signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const body = (await response.json()) as Record<string, unknown>;
  if (typeof body.issuer !== "string" || typeof body.jwks_uri !== "string") throw new Error("discovery document lacks issuer or jwks_uri");
  const url = (value: unknown) => (typeof value === "string" && URL.canParse(value) ? value : undefined);
  return {
    issuer: body.issuer,
    jwks_uri: body.jwks_uri,
    end_session_endpoint: url(body.end_session_endpoint),
    revocation_endpoint: url(body.revocation_endpoint),
  };
}

/**
 * The service's discovery document, fetched at most once per five minutes (a failure is not remembered, so the
 * next caller tries again). Deadline 10 s.
 */
export function getDiscovery(): Promise<Discovery> {
  if (cached && cached.until > Date.now()) return cached.value;
  const value = fetchDiscovery(getConfig().authUrl);
  cached = { value, until: Date.now() + DISCOVERY_TTL_MS };
  value.catch(() => {
    if (cached?.value === value) cached = undefined;
  });
  return value;
}
