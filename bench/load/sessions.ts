import { encode } from "next-auth/jwt";
import type { RunningSandbox } from "../../sandbox/index";
import { partnerTokens } from "../../tests/sandbox/support/oauth";

/** Auth.js's cookie name over http (AUTH_URL is http here, so no `__Secure-` prefix). */
export const SESSION_COOKIE = "authjs.session-token";

export interface LoadSession {
  /** `Cookie` header value for the app. */
  cookie: string;
  /** The same session's access token, for the direct-to-sandbox phase. */
  accessToken: string;
}

// Sign-ins walk authorize → sign-in → consent → token; a few at a time keeps the sandbox responsive.
const SIGN_IN_CONCURRENCY = 8;

async function signIn(sandbox: RunningSandbox, index: number, authSecret: string, cookieName: string): Promise<LoadSession> {
  const tokens = await partnerTokens(sandbox);
  const now = Math.floor(Date.now() / 1000);
  // Shaped like the cookie auth.ts writes, so the app decrypts and parses as much as in real use.
  const value = await encode({
    secret: authSecret,
    salt: cookieName,
    token: {
      name: "Alice Example",
      email: "alice@example.com",
      sub: `load-session-${index}`,
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      accessTokenExpiresAt: now + tokens.expires_in,
      accessTokenLifetime: tokens.expires_in,
      grantedScope: tokens.scope,
      requestedScope: "openid profile email service.api offline_access",
    },
  });
  return { cookie: `${cookieName}=${value}`, accessToken: tokens.access_token };
}

/**
 * Signs alice in `count` times, so every session has its own grant, tokens and cookie (named `cookieName`:
 * `__Secure-authjs.session-token` for an app on https).
 */
export async function signInSessions(
  sandbox: RunningSandbox,
  count: number,
  authSecret: string,
  cookieName = SESSION_COOKIE,
): Promise<LoadSession[]> {
  const sessions: LoadSession[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      sessions[index] = await signIn(sandbox, index, authSecret, cookieName);
    }
  };
  await Promise.all(Array.from({ length: SIGN_IN_CONCURRENCY }, worker));
  return sessions;
}
