import "server-only";
import { importJWK, type JWK } from "jose";
import type { DoctorContext, Discovery } from "@/lib/doctor/context";
import { probe } from "@/lib/doctor/probe";
import type { CheckResult } from "@/lib/doctor/report";

export type DiscoveryOutcome = { result: CheckResult; discovery?: Discovery; serverDate?: string };

/**
 * Check 2a: discovery answers and names ESIGN_AUTH_URL, exactly as written, as its issuer: sign-in
 * compares the id_token's `iss` with it character for character, trailing slash included.
 */
export async function checkDiscovery({ config }: DoctorContext): Promise<DiscoveryOutcome> {
  const title = "Auth server discovery";
  const url = `${config.authUrl}/.well-known/openid-configuration`;
  const answer = await probe(url, { headers: { accept: "application/json" } }, config.requestTimeoutMs);
  if (!answer.ok) {
    return {
      result: {
        id: "discovery",
        title,
        status: "fail",
        detail: `no answer from ${url} (${answer.error})`,
        fix: "Check ESIGN_AUTH_URL and that the auth server is up and reachable from this host.",
      },
    };
  }
  const serverDate = answer.headers.get("date") ?? undefined;
  let discovery: Discovery | undefined;
  try {
    discovery = JSON.parse(answer.text) as Discovery;
  } catch {
    discovery = undefined;
  }
  if (answer.status !== 200 || typeof discovery?.issuer !== "string") {
    return {
      serverDate,
      result: {
        id: "discovery",
        title,
        status: "fail",
        detail: `${url} answered ${answer.status} without an OpenID discovery document`,
        fix: "Set ESIGN_AUTH_URL to the service's authorization server base URL (the one serving /.well-known/openid-configuration).",
      },
    };
  }
  if (discovery.issuer !== config.issuer) {
    return {
      discovery,
      serverDate,
      result: {
        id: "discovery",
        title,
        status: "fail",
        detail: `issuer is ${discovery.issuer}, ESIGN_AUTH_URL is ${config.issuer}`,
        fix: `Set ESIGN_AUTH_URL=${discovery.issuer} (id_tokens are checked against the issuer).`,
      },
    };
  }
  return { discovery, serverDate, result: { id: "discovery", title, status: "pass", detail: `issuer ${discovery.issuer}` } };
}

/** Check 2b: the app calls the spec's fixed paths; a service publishing others would break sign-in or refresh. */
export function checkEndpoints({ config }: DoctorContext, discovery: Discovery): CheckResult {
  const title = "Authorize and token endpoints";
  const expected = { authorization_endpoint: `${config.authUrl}/connect/authorize`, token_endpoint: `${config.authUrl}/connect/token` };
  const different = Object.entries(expected).filter(([key, value]) => discovery[key as keyof Discovery] !== value);
  if (different.length === 0) return { id: "endpoints", title, status: "pass", detail: "/connect/authorize and /connect/token, as in the spec" };
  return {
    id: "endpoints",
    title,
    status: "warn",
    detail: different.map(([key, value]) => `${key} is ${String(discovery[key as keyof Discovery])}, the app uses ${value}`).join("; "),
    fix: "Ask the service whether the spec's /connect/authorize and /connect/token paths still work; the app calls those.",
  };
}

/** Check 2c: at least one published key can verify the service's id_tokens with an algorithm the app accepts. */
export async function checkJwks({ config }: DoctorContext, discovery: Discovery): Promise<CheckResult> {
  const title = "Signing keys (JWKS)";
  const fix = "Ask the service to publish an RS256/ES256 signing key at its jwks_uri; without one no id_token can be verified.";
  if (typeof discovery.jwks_uri !== "string") return { id: "jwks", title, status: "fail", detail: "discovery has no jwks_uri", fix };
  const answer = await probe(discovery.jwks_uri, { headers: { accept: "application/json" } }, config.requestTimeoutMs);
  if (!answer.ok || answer.status !== 200) {
    return { id: "jwks", title, status: "fail", detail: `${discovery.jwks_uri} ${answer.ok ? `answered ${answer.status}` : `unreachable (${answer.error})`}`, fix };
  }
  let keys: JWK[] = [];
  try {
    keys = ((JSON.parse(answer.text) as { keys?: JWK[] }).keys ?? []).filter((k) => (k.use ?? "sig") === "sig");
  } catch {
    keys = [];
  }
  const advertised = Array.isArray(discovery.id_token_signing_alg_values_supported)
    ? (discovery.id_token_signing_alg_values_supported as string[])
    : ["RS256"];
  const usable: string[] = [];
  for (const key of keys) {
    const alg = key.alg ?? advertised.find((a) => a !== "none");
    if (!alg) continue;
    try {
      await importJWK(key, alg);
      usable.push(`${alg}${key.kid ? ` (kid ${key.kid})` : ""}`);
    } catch {
      // not usable with this algorithm; try the next key
    }
  }
  if (usable.length === 0) return { id: "jwks", title, status: "fail", detail: `${keys.length} signing key(s), none usable`, fix };
  return { id: "jwks", title, status: "pass", detail: `${usable.length} usable signing key(s): ${usable.join(", ")}` };
}

const MAX_SKEW_SECONDS = 60;

/** Check 8: our clock against the auth server's Date header; id_token iat/exp checks fail beyond a minute. */
export function checkClock(serverDate: string | undefined, now = Date.now()): CheckResult {
  const title = "Clock";
  const server = serverDate ? Date.parse(serverDate) : Number.NaN;
  if (Number.isNaN(server)) return { id: "clock", title, status: "skip", detail: "the auth server sent no Date header" };
  const skew = Math.round((now - server) / 1000);
  if (Math.abs(skew) > MAX_SKEW_SECONDS) {
    return {
      id: "clock",
      title,
      status: "warn",
      detail: `this host is ${Math.abs(skew)} s ${skew > 0 ? "ahead of" : "behind"} the auth server`,
      fix: "Synchronise this host's clock (NTP); id_token checks fail beyond a minute of skew.",
    };
  }
  return { id: "clock", title, status: "pass", detail: `${Math.abs(skew)} s from the auth server's clock` };
}
