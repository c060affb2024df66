import "server-only";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { getConfig } from "@/lib/env";
import { getDiscovery } from "@/lib/auth/discovery";

let jwks: { uri: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;

/** The service's signing keys (jose caches them 10 minutes and refetches on an unknown `kid`). */
export async function serviceKeys(): Promise<{ issuer: string; keys: ReturnType<typeof createRemoteJWKSet> }> {
  const { issuer, jwks_uri } = await getDiscovery();
  if (jwks?.uri !== jwks_uri) jwks = { uri: jwks_uri, keys: createRemoteJWKSet(new URL(jwks_uri)) };
  return { issuer, keys: jwks.keys };
}

/**
 * Verifies the id_token's signature against the service's published keys, plus issuer, audience and
 * expiry. Auth.js checks the claims and nonce but relies on TLS for the signature; we check it too.
 */
export async function verifyIdToken(idToken: string): Promise<JWTPayload> {
  const { issuer, keys } = await serviceKeys();
  const { payload } = await jwtVerify(idToken, keys, { issuer, audience: getConfig().clientId });
  return payload;
}

/**
 * Whether a verification failed only because the keys could not be had: discovery or the JWKS unreachable or
 * slow, or a `kid` the cached key set does not know yet (a rotation seen within jose's 30 s refetch cooldown).
 * Such a token is neither good nor bad yet; anything else (bad signature, issuer, audience, expiry) is bad.
 */
export function isKeysUnavailable(error: unknown): boolean {
  if (!(error instanceof joseErrors.JOSEError)) return true;
  // jose throws its base class, code ERR_JOSE_GENERIC, only when the JWKS answer is not a 200 or not JSON.
  if (error.code === joseErrors.JOSEError.code) return true;
  return error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWKSInvalid;
}
