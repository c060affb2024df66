import "server-only";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { getConfig } from "@/lib/env";
import { getDiscovery } from "@/lib/auth/discovery";

type RemoteKeys = ReturnType<typeof createRemoteJWKSet>;
let jwks: { uri: string; keys: JWTVerifyGetKey } | undefined;

/**
 * A token whose `kid` the key set does not know, while jose will not fetch the set again yet (its 30 s cooldown
 * after a fetch): the key may be one the service rotated to since. Neither good nor bad yet.
 */
class KeyNotFetchedYetError extends Error {
  constructor(cause: unknown) {
    super("the token's key is not in the key set fetched moments ago, and jose will not refetch it yet (cooldown)", { cause });
    this.name = "KeyNotFetchedYetError";
  }
}

/**
 * jose's remote key set, telling an unknown `kid` it could not look up (cooldown) from one it just looked up and
 * did not find: outside the cooldown jose refetches the set for an unknown `kid`, so a miss then is final.
 */
function keysTellingCooldown(remote: RemoteKeys): JWTVerifyGetKey {
  return async (header, token) => {
    const refetchAllowed = !remote.coolingDown;
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof joseErrors.JWKSNoMatchingKey && !refetchAllowed) throw new KeyNotFetchedYetError(error);
      throw error;
    }
  };
}

/** The service's signing keys (jose caches them 10 minutes and refetches on an unknown `kid`, at most every 30 s). */
export async function serviceKeys(): Promise<{ issuer: string; keys: JWTVerifyGetKey }> {
  const { issuer, jwks_uri } = await getDiscovery();
  if (jwks?.uri !== jwks_uri) jwks = { uri: jwks_uri, keys: keysTellingCooldown(createRemoteJWKSet(new URL(jwks_uri))) };
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
 * Whether a token's verification failed only because the keys could not be had — discovery or the JWKS
 * unreachable, slow or answering other than 200 with a key set, or a `kid` not in a key set fetched within
 * jose's 30 s cooldown (a rotation seen too soon to refetch) — so that the token is neither good nor bad yet: an
 * id_token is kept and checked later, a logout token answered 503 for the service to retry. Anything else (a bad
 * signature, a `kid` still unknown after a refetch, issuer, audience, expiry) is a bad token. The one reading of
 * jose's errors for every token the app verifies.
 */
export function isKeysUnavailable(error: unknown): boolean {
  if (error instanceof KeyNotFetchedYetError) return true;
  // Not jose's: discovery or the network (fetch's TypeError, an abort) — no verdict on the token.
  if (!(error instanceof joseErrors.JOSEError)) return true;
  // jose throws its base class, code ERR_JOSE_GENERIC, only when the JWKS answer is not a 200 or not JSON.
  if (error.code === joseErrors.JOSEError.code) return true;
  return error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid;
}
