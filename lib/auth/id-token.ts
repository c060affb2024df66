import "server-only";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { getConfig } from "@/lib/env";

type Discovery = { issuer: string; jwks_uri: string };

let discovery: Promise<Discovery> | undefined;
let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

async function loadDiscovery(authUrl: string): Promise<Discovery> {
  const response = await fetch(`${authUrl}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const body = (await response.json()) as Partial<Discovery>;
  if (!body.issuer || !body.jwks_uri) throw new Error("discovery document lacks issuer or jwks_uri");
  return { issuer: body.issuer, jwks_uri: body.jwks_uri };
}

/**
 * Verifies the id_token's signature against the service's published keys, plus issuer, audience and
 * expiry. Auth.js checks the claims and nonce but relies on TLS for the signature; we check it too.
 */
export async function verifyIdToken(idToken: string): Promise<JWTPayload> {
  const { authUrl, clientId } = getConfig();
  discovery ??= loadDiscovery(authUrl).catch((error: unknown) => {
    discovery = undefined; // let the next sign-in try again
    throw error;
  });
  const { issuer, jwks_uri } = await discovery;
  jwks ??= createRemoteJWKSet(new URL(jwks_uri));
  const { payload } = await jwtVerify(idToken, jwks, { issuer, audience: clientId });
  return payload;
}
