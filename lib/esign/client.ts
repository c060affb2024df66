import "server-only";
import { getConfig } from "@/lib/env";
import { AppError, sessionExpiredError } from "@/lib/errors";
import { malformedResponse, sendToService, unexpectedStatus } from "@/lib/esign/http";
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
  const { status, body } = await sendToService(
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
  throw unexpectedStatus("getuserinfo", status);
}

/** Operation 4 — POST {base_url}/api/document: creates the document and returns where to PUT its file. */
export async function createDocument(accessToken: string, input: CreateDocumentInput): Promise<CreateDocumentResult> {
  const { apiUrl, requestTimeoutMs } = getConfig();
  const { status, body } = await sendToService(
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
  throw unexpectedStatus("document", status);
}

export type RefreshFailure = "rejected" | "client_rejected" | "unavailable";

export class TokenRefreshError extends Error {
  constructor(readonly reason: RefreshFailure, message: string) {
    super(message);
    this.name = "TokenRefreshError";
  }
}

/** The client's authentication for calls to the auth server, as configured (form fields or a Basic header). */
function clientAuthentication(form: URLSearchParams): Record<string, string> {
  const { clientId, clientSecret, tokenAuthMethod } = getConfig();
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  form.set("client_id", clientId);
  if (clientSecret && tokenAuthMethod === "client_secret_post") form.set("client_secret", clientSecret);
  if (clientSecret && tokenAuthMethod === "client_secret_basic") {
    // RFC 6749 §2.3.1: form-encode both parts before base64.
    const encode = (v: string) => encodeURIComponent(v).replace(/%20/g, "+");
    headers.authorization = `Basic ${btoa(`${encode(clientId)}:${encode(clientSecret)}`)}`;
  }
  return headers;
}

/**
 * Operation 3 — POST {auth_url}/connect/token with grant_type=refresh_token.
 * The service returns a new refresh token every time; the caller must store it.
 */
export async function refreshTokens(refreshToken: string): Promise<TokenResponse> {
  const { authUrl, requestTimeoutMs } = getConfig();
  const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
  const headers = clientAuthentication(form);
  let response: Awaited<ReturnType<typeof sendToService>>;
  try {
    response = await sendToService("refresh", `${authUrl}/connect/token`, { method: "POST", headers, body: form }, requestTimeoutMs);
  } catch (error) {
    throw new TokenRefreshError("unavailable", error instanceof Error ? error.message : "token endpoint unreachable");
  }
  const { status, body } = response;
  if (status === 200) {
    const parsed = tokenResponseSchema.safeParse(body);
    if (!parsed.success) throw new TokenRefreshError("unavailable", "token endpoint returned a malformed token response");
    return parsed.data;
  }
  if (status === 400) {
    recordReuseSuspect();
    throw new TokenRefreshError("rejected", "token endpoint rejected the refresh token (400)");
  }
  if (status === 401) throw new TokenRefreshError("client_rejected", "token endpoint rejected the client (401)");
  throw new TokenRefreshError("unavailable", `token endpoint answered ${status}`);
}

/**
 * RFC 7009 token revocation at the endpoint the service's discovery publishes (the spec names none, so callers
 * only call this when discovery has one). Resolves whether the service confirmed it (200); never throws.
 */
export async function revokeToken(endpoint: string, token: string, hint: "refresh_token" | "access_token"): Promise<boolean> {
  const form = new URLSearchParams({ token, token_type_hint: hint });
  const headers = clientAuthentication(form);
  try {
    const { status } = await sendToService("revocation", endpoint, { method: "POST", headers, body: form }, getConfig().requestTimeoutMs);
    return status === 200;
  } catch {
    return false;
  }
}
