import "server-only";
import * as oauth from "oauth4webapi";

/**
 * Why a token endpoint call gave no tokens, by what it means for the user's session:
 * - `rejected`: the grant was refused (`invalid_grant`: the refresh token is used, revoked or expired), or the
 *   id_token that came with new tokens is not for this client and issuer: the session ends;
 * - `misconfigured`: the app's client was refused (`invalid_client`, `unauthorized_client`): a configuration
 *   fault such as a wrong ESIGN_CLIENT_SECRET, no fault of the user's: the session and its refresh token are
 *   kept, so that users are signed in again once the configuration is fixed;
 * - `unavailable`: anything else (5xx, timeout, network, another error code, an answer that cannot be read):
 *   the session is kept and the refresh tried again later.
 */
export type TokenEndpointFailure = "rejected" | "misconfigured" | "unavailable";

/** What a failed token endpoint call said: its status and OAuth error code when it had them. */
export type TokenEndpointError = { failure: TokenEndpointFailure; status?: number; code?: string; message: string };

const CLIENT_ERRORS = new Set(["invalid_client", "unauthorized_client"]);

/**
 * The failure an answer stands for. The error code in the body decides when there is one (RFC 6749 §5.2);
 * without one, the spec's rows decide: 400 "an authentication error" (a refused refresh token), 401 "validation
 * failed" (the client's authentication, as RFC 6749 answers invalid_client).
 */
export function classifyTokenEndpointAnswer(status: number | undefined, code: string | undefined): TokenEndpointFailure {
  if (code === "invalid_grant") return "rejected";
  if (code && CLIENT_ERRORS.has(code)) return "misconfigured";
  if (code) return "unavailable";
  if (status === 400) return "rejected";
  if (status === 401) return "misconfigured";
  return "unavailable";
}

const ID_TOKEN_CHECKS = new Set<string>([oauth.JWT_CLAIM_COMPARISON, oauth.JWT_TIMESTAMP_CHECK]);

const statusOf = (value: unknown): number | undefined => (value instanceof Response ? value.status : undefined);

/**
 * Reads an error thrown by an oauth4webapi token endpoint call (request or response processing): an OAuth
 * error body, a WWW-Authenticate challenge, an answer of another shape (status only), or no answer at all.
 */
export function describeTokenEndpointError(error: unknown): TokenEndpointError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof oauth.ResponseBodyError) {
    const detail = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
    return { failure: classifyTokenEndpointAnswer(error.status, error.error), status: error.status, code: error.error, message: `answered ${error.status} ${detail}` };
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const code = error.cause.map((challenge) => challenge.parameters.error).find((value) => typeof value === "string" && value.length > 0);
    return { failure: classifyTokenEndpointAnswer(error.status, code), status: error.status, ...(code ? { code } : {}), message: `answered ${error.status} with a challenge${code ? ` (${code})` : ""}` };
  }
  if (error instanceof oauth.OperationProcessingError) {
    // The new id_token's claims (issuer, audience, expiry) are wrong: as when our own check of it fails, the
    // session ends (its refresh token is spent already, and presenting it again would look like reuse).
    if (error.code !== undefined && ID_TOKEN_CHECKS.has(error.code)) return { failure: "rejected", status: 200, message: `the new id_token failed its check: ${message}` };
    // An answer without a readable OAuth error body carries the Response as its cause: judge it by the status.
    const status = statusOf(error.cause);
    if (status !== undefined && status !== 200) return { failure: classifyTokenEndpointAnswer(status, undefined), status, message: `answered ${status} without an OAuth error code` };
    return { failure: "unavailable", ...(status ? { status } : {}), message: `answer not understood: ${message}` };
  }
  return { failure: "unavailable", message: `no answer: ${message}` };
}
