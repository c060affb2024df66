import { createHash, randomBytes } from "node:crypto";
import type { RunningSandbox } from "../../../sandbox/index";
import { CookieJar } from "./cookie-jar";
import { REDIRECT_URI } from "./sandbox";

export interface SignInOptions {
  clientId: string;
  scope: string;
  email?: string;
  password?: string;
  consent?: "allow" | "deny";
  codeChallenge?: string;
  extraParams?: Record<string, string>;
}

export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Form fields of the interaction page's forms, keyed by the button text, so tests press buttons by name. */
function formActions(html: string): Map<string, string> {
  const actions = new Map<string, string>();
  for (const match of html.matchAll(/<form method="post" action="([^"]+)"[^>]*>[\s\S]*?<button[^>]*>([^<]+)<\/button>/g)) {
    if (match[1] && match[2]) actions.set(match[2], match[1]);
  }
  return actions;
}

/**
 * Drives authorize → sign-in → consent over plain HTTP, following redirects by hand and carrying cookies,
 * and returns the callback URL the browser would land on.
 */
export async function authorizeInBrowser(
  sandbox: RunningSandbox,
  authorizeUrl: URL,
  options: SignInOptions,
  jar = new CookieJar(),
): Promise<URL> {
  let next = new URL(authorizeUrl);
  let body: string | undefined;
  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(next, {
      method: body === undefined ? "GET" : "POST",
      redirect: "manual",
      headers: {
        cookie: jar.header(),
        ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
      },
      body,
    });
    jar.store(response);
    body = undefined;
    const location = response.headers.get("location");
    if (location) {
      next = new URL(location, next);
      if (next.href.startsWith(REDIRECT_URI)) return next;
      await response.body?.cancel();
      continue;
    }
    const html = await response.text();
    if (response.status >= 400) throw new Error(`sign-in step answered ${response.status}: ${html.slice(0, 300)}`);
    const actions = formActions(html);
    const signIn = actions.get("Sign in");
    if (signIn) {
      next = new URL(signIn, next);
      body = new URLSearchParams({
        email: options.email ?? "alice@example.com",
        password: options.password ?? "alice-password",
      }).toString();
      continue;
    }
    const consent = actions.get(options.consent === "deny" ? "Deny" : "Allow");
    if (!consent) throw new Error(`unexpected page: ${html.slice(0, 300)}`);
    next = new URL(consent, next);
    body = "";
  }
  throw new Error(`too many redirects while signing in at ${sandbox.authUrl}`);
}

export function buildAuthorizeUrl(sandbox: RunningSandbox, options: SignInOptions): URL {
  const url = new URL(`${sandbox.authUrl}/connect/authorize`);
  url.search = new URLSearchParams({
    client_id: options.clientId,
    response_type: "code",
    scope: options.scope,
    redirect_uri: REDIRECT_URI,
    response_mode: "query",
    state: randomBytes(8).toString("hex"),
    ...(options.codeChallenge ? { code_challenge: options.codeChallenge, code_challenge_method: "S256" } : {}),
    ...options.extraParams,
  }).toString();
  return url;
}

/** Signs in and returns the authorization code plus the PKCE verifier that goes with it. */
export async function obtainCode(
  sandbox: RunningSandbox,
  options: SignInOptions,
  jar?: CookieJar,
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = createPkcePair();
  const callback = await authorizeInBrowser(
    sandbox,
    buildAuthorizeUrl(sandbox, { codeChallenge: challenge, ...options }),
    options,
    jar,
  );
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`no code in callback ${callback.href}`);
  return { code, verifier };
}

export async function postToken(
  sandbox: RunningSandbox,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${sandbox.authUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  id_token: string;
  scope: string;
  expires_in: number;
  token_type: string;
}

export const PARTNER = { client_id: "partner-app", client_secret: "partner-app-secret" };

/** Full sign-in plus code exchange for partner-app (client_secret_post), the common test setup. */
export async function partnerTokens(
  sandbox: RunningSandbox,
  scope = "openid profile email service.api offline_access",
  user: { email: string; password: string } = { email: "alice@example.com", password: "alice-password" },
  /** Pass one to keep the sign-in session's cookies, e.g. to sign out at the sandbox afterwards. */
  jar?: CookieJar,
): Promise<TokenSet> {
  const { code, verifier } = await obtainCode(sandbox, { clientId: PARTNER.client_id, scope, ...user }, jar);
  const { status, body } = await postToken(sandbox, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    ...PARTNER,
  });
  if (status !== 200) throw new Error(`token exchange failed: ${status} ${JSON.stringify(body)}`);
  return body as unknown as TokenSet;
}
