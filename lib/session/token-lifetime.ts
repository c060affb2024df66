import "server-only";
import { decodeJwt } from "jose";
import { getLogger } from "@/lib/logging/logger";

/**
 * The lifetime assumed for an access token that came without `expires_in` and is not a JWT with `exp`: short, so
 * that a token living shorter than it is rare, and a token living longer only costs earlier refreshes.
 */
export const DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS = 300;

const LOGGED_KEY = Symbol.for("esign.tokenLifetimeLogged");
type GlobalWithLogged = typeof globalThis & { [LOGGED_KEY]?: Set<string> };

/** Logs each way of finding a lifetime once per process: the service answers the same way every time. */
function logOnce(source: "exp" | "default"): void {
  const logged = ((globalThis as GlobalWithLogged)[LOGGED_KEY] ??= new Set());
  if (logged.has(source)) return;
  logged.add(source);
  getLogger().warn({
    msg:
      source === "exp"
        ? "token response without expires_in: the access token's lifetime is taken from its exp claim"
        : `token response without expires_in, and the access token is not a JWT with exp: its lifetime is taken as ${DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS} s`,
  });
}

/**
 * Seconds the access token lives: `expires_in` when the token response has it (RFC 6749 §5.1 only recommends
 * it), else the token's own `exp` when it is a JWT (IdentityServer's default), else the default above. Never a
 * reason to discard tokens the service has just issued.
 */
export function accessTokenLifetime(accessToken: string, expiresIn: number | undefined, nowSeconds = Math.floor(Date.now() / 1000)): number {
  if (expiresIn !== undefined && expiresIn > 0) return expiresIn;
  let exp: unknown;
  try {
    exp = decodeJwt(accessToken).exp;
  } catch {
    // An opaque token: nothing to read.
  }
  if (typeof exp === "number" && exp > nowSeconds) {
    logOnce("exp");
    return exp - nowSeconds;
  }
  logOnce("default");
  return DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS;
}
