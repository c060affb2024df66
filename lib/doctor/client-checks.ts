import "server-only";
import { randomBytes } from "node:crypto";
import type { DoctorContext, Discovery } from "@/lib/doctor/context";
import { oauthErrorCode, probe } from "@/lib/doctor/probe";
import type { CheckResult } from "@/lib/doctor/report";

type ClientAuthMethod = "client_secret_post" | "client_secret_basic" | "none";

/** Sends the token endpoint a code that cannot exist; how it refuses tells whether the client authenticated. */
async function tryInvalidCode(ctx: DoctorContext, method: ClientAuthMethod) {
  const { config } = ctx;
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code: `doctor-invalid-${randomBytes(12).toString("hex")}`,
    redirect_uri: ctx.redirectUri ?? `${config.authUrl}/doctor`,
    client_id: config.clientId,
    code_verifier: randomBytes(32).toString("base64url"),
  });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (method === "client_secret_post" && config.clientSecret) form.set("client_secret", config.clientSecret);
  if (method === "client_secret_basic" && config.clientSecret) {
    const encode = (v: string) => encodeURIComponent(v).replace(/%20/g, "+");
    headers.authorization = `Basic ${btoa(`${encode(config.clientId)}:${encode(config.clientSecret)}`)}`;
  }
  const answer = await probe(`${config.authUrl}/connect/token`, { method: "POST", headers, body: form }, config.requestTimeoutMs);
  if (!answer.ok) return { kind: "unreachable" as const, detail: answer.error };
  const error = oauthErrorCode(answer.text);
  if (answer.status === 401 || error === "invalid_client") return { kind: "client_refused" as const, detail: `${answer.status} ${error ?? ""}`.trim() };
  if (answer.status === 400) return { kind: "authenticated" as const, detail: `400 ${error ?? ""}`.trim() };
  return { kind: "unexpected" as const, detail: `answered ${answer.status}` };
}

/** Check 3: the client is known and authenticates the way ESIGN_TOKEN_AUTH_METHOD says. */
export async function checkClientCredentials(ctx: DoctorContext): Promise<CheckResult> {
  const { config } = ctx;
  const title = "Client credentials";
  const method = config.tokenAuthMethod;
  const first = await tryInvalidCode(ctx, method);
  if (first.kind === "authenticated") {
    const detail = method === "none"
      ? `${config.clientId} is recognised as a public client (PKCE, no secret)`
      : `${config.clientId} authenticated with ${method} (a deliberately invalid code got ${first.detail})`;
    return { id: "client", title, status: "pass", detail };
  }
  if (first.kind !== "client_refused") {
    return {
      id: "client",
      title,
      status: "fail",
      detail: `token endpoint ${first.kind === "unreachable" ? `unreachable (${first.detail})` : first.detail}`,
      fix: "Check ESIGN_AUTH_URL and that the token endpoint /connect/token is reachable from this host.",
    };
  }
  if (method === "none") {
    return {
      id: "client",
      title,
      status: "fail",
      detail: `${config.clientId} was refused without a secret (${first.detail})`,
      fix: "Set ESIGN_CLIENT_SECRET to the secret from the partner portal, or ESIGN_CLIENT_ID to the shared development client.",
    };
  }
  const other: ClientAuthMethod = method === "client_secret_post" ? "client_secret_basic" : "client_secret_post";
  const second = await tryInvalidCode(ctx, other);
  if (second.kind === "authenticated") {
    return {
      id: "client",
      title,
      status: "fail",
      detail: `${config.clientId} was refused with ${method} but authenticated with ${other}`,
      fix: `Set ESIGN_TOKEN_AUTH_METHOD=${other} (the method the client is registered for).`,
    };
  }
  return {
    id: "client",
    title,
    status: "fail",
    detail: `${config.clientId} was refused with both client_secret_post and client_secret_basic (${first.detail})`,
    fix: "Copy ESIGN_CLIENT_ID and ESIGN_CLIENT_SECRET again from the partner portal; the secret (or the client id) is wrong.",
  };
}

/** Check 4: the authorize endpoint accepts our redirect URI (its login page or a redirect to it), without signing anyone in. */
export async function checkRedirectUri(ctx: DoctorContext): Promise<CheckResult> {
  const { config, redirectUri } = ctx;
  const title = "Redirect URI";
  if (!redirectUri) {
    return {
      id: "redirect-uri",
      title,
      status: "fail",
      detail: "AUTH_URL is not set, so the redirect URI is not known",
      fix: "Set AUTH_URL to the app's public URL, e.g. https://partner.example.com.",
    };
  }
  const url = new URL(`${config.authUrl}/connect/authorize`);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    response_type: "code",
    scope: config.scopes,
    redirect_uri: redirectUri,
    response_mode: "query",
    state: randomBytes(12).toString("base64url"),
    nonce: randomBytes(12).toString("base64url"),
    code_challenge: randomBytes(32).toString("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const answer = await probe(url.href, { headers: { accept: "text/html" } }, config.requestTimeoutMs);
  const fix = `Register exactly ${redirectUri} as a redirect URI for ${config.clientId} at the partner portal (or set AUTH_URL to the app's public URL).`;
  if (!answer.ok) {
    return { id: "redirect-uri", title, status: "fail", detail: `authorize endpoint unreachable (${answer.error})`, fix: "Check ESIGN_AUTH_URL and that the auth server is up." };
  }
  const location = answer.headers.get("location");
  const code = oauthErrorCode(answer.text);
  // Only a registered redirect URI ever receives a redirect; errors for anything else stay on the server's page.
  if (answer.status >= 300 && answer.status < 400 && location) {
    const target = new URL(location, url);
    const error = target.href.startsWith(redirectUri) ? target.searchParams.get("error") : null;
    if (!error) return { id: "redirect-uri", title, status: "pass", detail: `${redirectUri} accepted (the service's sign-in page follows)` };
    return {
      id: "redirect-uri",
      title,
      status: "fail",
      detail: `${redirectUri} is registered, but the authorization request was refused with error=${error}`,
      fix:
        error === "invalid_scope"
          ? "Remove the scopes this client may not request from ESIGN_SCOPES."
          : `Ask the service to enable the authorization code flow for ${config.clientId} (it answered ${error}).`,
    };
  }
  if (answer.status === 200 && !code) {
    return { id: "redirect-uri", title, status: "pass", detail: `${redirectUri} accepted (the service's sign-in page answered)` };
  }
  if (code === "invalid_client") {
    return {
      id: "redirect-uri",
      title,
      status: "fail",
      detail: `the authorize endpoint does not know client ${config.clientId}`,
      fix: "Copy ESIGN_CLIENT_ID again from the partner portal; the client is unknown or not yet approved.",
    };
  }
  return { id: "redirect-uri", title, status: "fail", detail: `${redirectUri} refused (${answer.status}${code ? ` ${code}` : ""})`, fix };
}

/**
 * Check 5: the scopes the app needs are requested, and a public client does not ask for refresh tokens.
 * A requested scope missing from `scopes_supported` is only a warning: OpenID Connect Discovery lets a
 * service leave scopes unadvertised, and a service may grant another scope for it (service.app for
 * service.api in the spec's sample). A refusal shows at the authorize endpoint (the Redirect URI check).
 */
export function checkScopes({ config }: DoctorContext, discovery: Discovery | undefined): CheckResult {
  const title = "Scopes";
  const requested = config.scopes.split(/\s+/).filter(Boolean);
  if (!config.clientSecret && requested.includes("offline_access")) {
    return {
      id: "scopes",
      title,
      status: "fail",
      detail: `public client ${config.clientId} requests offline_access`,
      fix: "Remove offline_access from ESIGN_SCOPES: a public client (no secret) never gets refresh tokens, or set ESIGN_CLIENT_SECRET for a registered client.",
    };
  }
  if (!requested.includes("service.api")) {
    return {
      id: "scopes",
      title,
      status: "fail",
      detail: `ESIGN_SCOPES (${config.scopes}) lacks service.api`,
      fix: "Add service.api to ESIGN_SCOPES; without it every API call answers 403.",
    };
  }
  const supported = Array.isArray(discovery?.scopes_supported) ? (discovery.scopes_supported as string[]) : undefined;
  if (!supported) {
    const why = discovery ? "the service publishes no scopes_supported" : "scopes_supported not read";
    return { id: "scopes", title, status: "pass", detail: `${config.scopes} (${why})` };
  }
  const unadvertised = requested.filter((s) => !supported.includes(s));
  if (unadvertised.length > 0) {
    return {
      id: "scopes",
      title,
      status: "warn",
      detail: `not in discovery's scopes_supported: ${unadvertised.join(" ")} (advertised: ${supported.join(" ")})`,
      fix: `Sign in once and check the granted scopes on the account page: if the service grants what ${unadvertised.join(" ")} stands for, nothing to do; if sign-in is refused with invalid_scope, remove ${unadvertised.join(" ")} from ESIGN_SCOPES.`,
    };
  }
  return { id: "scopes", title, status: "pass", detail: `${config.scopes}, all supported` };
}
