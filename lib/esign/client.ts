import "server-only";
import { getConfig } from "@/lib/env";
import { AppError, sessionExpiredError } from "@/lib/errors";
import { malformedResponse, sendToService, unexpectedStatus } from "@/lib/esign/http";
import * as oauth from "oauth4webapi";
import { clearClientRejected, reportClientRejected } from "@/lib/esign/client-rejection-log";
import { describeTokenEndpointError, type TokenEndpointFailure } from "@/lib/esign/token-endpoint-failure";
import { oauthClient, oauthRequestOptions, tokenEndpointServer } from "@/lib/esign/token-endpoint";
import { recordReuseSuspect } from "@/lib/metrics/refresh";
import {
  NAME_TOO_SHORT_MESSAGE,
  createDocumentResultSchema,
  tokenResponseSchema,
  userInfoSchema,
  type CreateDocumentInput,
  type CreateDocumentResult,
  type TokenResponse,
  type UserInfo,
} from "@/lib/esign/schemas";

const insufficientScope = () =>
  new AppError("INSUFFICIENT_SCOPE", 403, "This sign-in was not granted access to the e-signature API (scope service.api).");

function bearer(accessToken: string) {
  return { authorization: `Bearer ${accessToken}` };
}

/** Operation 6 — GET {base_url}/api/getuserinfo: the customer account and user record. */
export async function getUserInfo(accessToken: string): Promise<UserInfo> {
  const { apiUrl, requestTimeoutMs } = getConfig();
  const { status, body, retryAfter } = await sendToService(
    "getuserinfo",
    `${apiUrl}/api/getuserinfo`,
    { method: "GET", headers: { ...bearer(accessToken), accept: "application/json" } },
    requestTimeoutMs,
  );
  if (status === 200) {
    const parsed = userInfoSchema.safeParse(body);
    if (!parsed.success) throw malformedResponse("getuserinfo", "body is not a JSON object");
    return parsed.data;
  }
  if (status === 400) {
    throw new AppError(
      "CUSTOMER_NOT_FOUND",
      404,
      "Your sign-in worked, but there is no customer account for this user at the e-signature service.",
    );
  }
  if (status === 401) throw sessionExpiredError();
  if (status === 403) throw insufficientScope();
  throw unexpectedStatus("getuserinfo", status, retryAfter);
}

/** Operation 4 — POST {base_url}/api/document: creates the document and returns where to PUT its file. */
export async function createDocument(accessToken: string, input: CreateDocumentInput): Promise<CreateDocumentResult> {
  const { apiUrl, requestTimeoutMs } = getConfig();
  const { status, body, retryAfter } = await sendToService(
    "create_document",
    `${apiUrl}/api/document`,
    {
      method: "POST",
      headers: { ...bearer(accessToken), "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ docid: null, name: input.name, doctype: input.doctype }),
    },
    requestTimeoutMs,
  );
  if (status === 200) {
    const parsed = createDocumentResultSchema.safeParse(body);
    if (!parsed.success) {
      throw malformedResponse("document", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    }
    return parsed.data;
  }
  // The spec documents exactly one 400 for this operation: a non-empty name shorter than 3 characters.
  if (status === 400) throw new AppError("NAME_TOO_SHORT", 400, NAME_TOO_SHORT_MESSAGE, { name: [NAME_TOO_SHORT_MESSAGE] });
  if (status === 401) throw sessionExpiredError();
  if (status === 403) throw insufficientScope();
  throw unexpectedStatus("document", status, retryAfter);
}

export type RefreshFailure = TokenEndpointFailure;

/** A refresh that gave no tokens; `reason` says what it means for the session (see TokenEndpointFailure). */
export class TokenRefreshError extends Error {
  constructor(readonly reason: RefreshFailure, message: string, readonly code?: string) {
    super(message);
    this.name = "TokenRefreshError";
  }
}

/**
 * Operation 3 — POST {auth_url}/connect/token with grant_type=refresh_token, through oauth4webapi (client
 * authentication, error parsing, and the claims of a new id_token). The service returns a new refresh token
 * every time; the caller must store it. Throws TokenRefreshError: `rejected` for invalid_grant, `misconfigured`
 * when the client itself is refused (logged once per outage, with the fix), `unavailable` otherwise.
 */
export async function refreshTokens(refreshToken: string): Promise<TokenResponse> {
  const { client, authentication, extraParameters } = oauthClient();
  const server = tokenEndpointServer();
  let body: oauth.TokenEndpointResponse;
  try {
    const options = oauthRequestOptions("refresh");
    const response = await oauth.refreshTokenGrantRequest(server, client, authentication, refreshToken, { ...options, additionalParameters: extraParameters });
    body = await oauth.processRefreshTokenResponse(server, client, response);
  } catch (error) {
    const { failure, code, message } = describeTokenEndpointError(error);
    // Only this code means the token was used or revoked, as a replayed stolen token would be.
    if (code === "invalid_grant") recordReuseSuspect();
    if (failure === "misconfigured") reportClientRejected(message);
    if (failure === "rejected") clearClientRejected();
    throw new TokenRefreshError(failure, `token endpoint ${message}`, code);
  }
  clearClientRejected();
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success) throw new TokenRefreshError("unavailable", "token endpoint returned a malformed token response");
  return parsed.data;
}

/**
 * RFC 7009 token revocation at the endpoint the service's discovery publishes (the spec names none, so callers
 * only call this when discovery has one), through oauth4webapi. Resolves whether the service confirmed it (200);
 * never throws.
 */
export async function revokeToken(endpoint: string, token: string, hint: "refresh_token" | "access_token"): Promise<boolean> {
  const { client, authentication, extraParameters } = oauthClient();
  const server: oauth.AuthorizationServer = { issuer: getConfig().issuer, revocation_endpoint: endpoint };
  try {
    const options = oauthRequestOptions("revocation");
    const response = await oauth.revocationRequest(server, client, authentication, token, {
      ...options,
      additionalParameters: { ...extraParameters, token_type_hint: hint },
    });
    await oauth.processRevocationResponse(response);
    return true;
  } catch {
    return false;
  }
}
