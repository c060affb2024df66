import "server-only";
import { jwtVerify } from "jose";
import { getConfig } from "@/lib/env";
import { isKeysUnavailable, serviceKeys } from "@/lib/auth/id-token";

const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";

/** A logout token is sent the moment the service ends its session: one older than this is refused. */
export const LOGOUT_TOKEN_MAX_AGE_SECONDS = 5 * 60;
/** Allowed difference between the service's clock and ours, both ways. */
export const LOGOUT_TOKEN_CLOCK_SKEW_SECONDS = 60;
/**
 * How long a token with a given `iat` is accepted: from `iat - skew` to `iat + max age + skew`. Its `jti` must be
 * remembered at least this long, so that a replay within the window is recognised.
 */
export const LOGOUT_TOKEN_ACCEPTANCE_WINDOW_MS = (LOGOUT_TOKEN_MAX_AGE_SECONDS + 2 * LOGOUT_TOKEN_CLOCK_SKEW_SECONDS) * 1000;

/** Whom a verified logout token logs out (at least one of the two) and its unique id. */
export type LogoutClaims = { jti: string; sub?: string; sid?: string };

/** The token is not a valid logout token from the service for this app: answer 400, end nothing. */
export class InvalidLogoutTokenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidLogoutTokenError";
  }
}

/** The service's keys could not be had (see isKeysUnavailable): the service may retry later. */
export class LogoutTokenKeysUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LogoutTokenKeysUnavailableError";
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/**
 * Validates a back-channel logout token (OIDC Back-Channel Logout 1.0, §2.4 and §2.6): signed by one of the
 * service's published keys, `iss` the discovery issuer, `aud` naming this client, `iat` present and recent,
 * `exp` (when present) not passed, `typ` (when present) `logout+jwt`, the back-channel logout event, `sub` and/or
 * `sid`, a `jti`, and no `nonce` (which would make it an id_token). Does not check `jti` for replay: that is
 * the session store's (claimLogoutToken).
 */
export async function verifyLogoutToken(logoutToken: string): Promise<LogoutClaims> {
  let keys: Awaited<ReturnType<typeof serviceKeys>>;
  try {
    keys = await serviceKeys();
  } catch (error) {
    throw new LogoutTokenKeysUnavailableError(`discovery unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let verified: Awaited<ReturnType<typeof jwtVerify>>;
  try {
    verified = await jwtVerify(logoutToken, keys.keys, {
      issuer: keys.issuer,
      audience: getConfig().clientId,
      maxTokenAge: LOGOUT_TOKEN_MAX_AGE_SECONDS,
      clockTolerance: LOGOUT_TOKEN_CLOCK_SKEW_SECONDS,
      requiredClaims: ["iat", "jti"],
    });
  } catch (error) {
    // Read as the id_token's are: without the keys (including a `kid` jose cannot refetch for yet) the service may
    // retry; a `kid` still unknown after a refetch is a forgery.
    const message = error instanceof Error ? error.message : String(error);
    if (isKeysUnavailable(error)) throw new LogoutTokenKeysUnavailableError(`keys unavailable: ${message}`, { cause: error });
    throw new InvalidLogoutTokenError(message, { cause: error });
  }
  const { payload, protectedHeader } = verified;
  const typ = protectedHeader.typ?.toLowerCase();
  if (typ !== undefined && typ !== "logout+jwt" && typ !== "application/logout+jwt") throw new InvalidLogoutTokenError(`"typ" header is ${protectedHeader.typ}, not logout+jwt`);
  if (!isObject(payload.events) || !isObject(payload.events[BACKCHANNEL_LOGOUT_EVENT])) {
    throw new InvalidLogoutTokenError(`"events" claim lacks the back-channel logout event as a JSON object`);
  }
  if ("nonce" in payload) throw new InvalidLogoutTokenError(`"nonce" claim present: not a logout token`);
  if (!nonEmptyString(payload.jti)) throw new InvalidLogoutTokenError(`"jti" claim is not a non-empty string`);
  const sub = nonEmptyString(payload.sub) ? payload.sub : undefined;
  const sid = nonEmptyString(payload.sid) ? payload.sid : undefined;
  if (payload.sub !== undefined && !sub) throw new InvalidLogoutTokenError(`"sub" claim is not a non-empty string`);
  if (payload.sid !== undefined && !sid) throw new InvalidLogoutTokenError(`"sid" claim is not a non-empty string`);
  if (!sub && !sid) throw new InvalidLogoutTokenError(`neither "sub" nor "sid" claim present`);
  return { jti: payload.jti, ...(sub ? { sub } : {}), ...(sid ? { sid } : {}) };
}
