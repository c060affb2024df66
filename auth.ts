import NextAuth, { type DefaultSession } from "next-auth";
import { getConfig } from "@/lib/env";
import { esignProvider } from "@/lib/auth/esign-provider";
import { safeRedirect } from "@/lib/auth/safe-redirect";
import { logAuthError } from "@/lib/auth/auth-error-log";
import { sessionTokenFromSignIn } from "@/lib/auth/sign-in-session";
import { sessionCookieMaxAgeSeconds, type SessionToken, type SessionTokenError } from "@/lib/auth/session-token";
import { headers } from "next/headers";
import { resolveSession, shouldRefresh } from "@/lib/session/current-session";
import type { SessionRecord } from "@/lib/session/session-record";

/** What the browser may know about its session's tokens: facts, never the tokens themselves. */
export type TokenInfo = {
  grantedScopes: string[];
  requestedScopes: string[];
  hasRefreshToken: boolean;
  accessTokenExpiresAt: number | null;
};

declare module "next-auth" {
  interface Session {
    error?: SessionTokenError;
    tokenInfo: TokenInfo;
    user: { name?: string | null; email?: string | null } & DefaultSession["user"];
  }
}

const NO_TOKEN_INFO: TokenInfo = { grantedScopes: [], requestedScopes: [], hasRefreshToken: false, accessTokenExpiresAt: null };

function tokenInfoOf(record: SessionRecord): TokenInfo {
  return {
    grantedScopes: record.grantedScope?.split(" ").filter(Boolean) ?? [],
    requestedScopes: record.requestedScope?.split(" ").filter(Boolean) ?? [],
    hasRefreshToken: Boolean(record.refreshToken),
    accessTokenExpiresAt: record.accessTokenExpiresAt ?? null,
  };
}

/**
 * Token facts of the session the jwt callback just read, for the session callback of the same call. Kept beside
 * the token object rather than in it, because whatever the jwt callback returns is written into the cookie.
 */
const tokenInfoByToken = new WeakMap<object, TokenInfo>();

/**
 * The cookie's content for a request after sign-in: the handle and display fields, with the session's current
 * error. Null ends the browser's session (Auth.js then drops the cookie where it can).
 */
async function sessionTokenForRequest(token: SessionToken): Promise<SessionToken | null> {
  const display: SessionToken = { name: token.name, email: token.email, sub: token.sub };
  // A cookie from before server-side sessions carries tokens and no handle: a clean "sign in again".
  if (!token.sessionHandle) return { ...display, error: "SessionExpired" };
  // Behind proxy.ts (pages) the tokens are fresh already; Auth.js's own routes (not behind it) refresh here.
  const state = await resolveSession(token.sessionHandle, shouldRefresh(await headers()));
  if (state.status === "ended") return null;
  const current: SessionToken = { ...display, sessionHandle: token.sessionHandle };
  if (state.status === "unavailable") return { ...current, error: "Unavailable" };
  if (state.record.error) current.error = state.record.error;
  tokenInfoByToken.set(current, tokenInfoOf(state.record));
  return current;
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const config = getConfig();
  return {
    // Several secrets: the first encrypts, all decrypt, so a rotation keeps everyone signed in.
    secret: config.authSecrets,
    trustHost: true,
    providers: [esignProvider(config)],
    // The JWT strategy with a handle inside: the tokens themselves live in the server-side session store.
    session: { strategy: "jwt", maxAge: sessionCookieMaxAgeSeconds(config.sessions.maxAgeMs) },
    pages: { signIn: "/", error: "/auth/error" },
    // Tells a stale sign-in link from a configuration error, in the log and on the error page.
    logger: { error: logAuthError },
    callbacks: {
      redirect: ({ url, baseUrl }) => safeRedirect(url, baseUrl),
      async jwt({ token, account }) {
        if (account) return sessionTokenFromSignIn(token as SessionToken, account);
        return sessionTokenForRequest(token as SessionToken);
      },
      session({ session, token }) {
        const t = token as SessionToken;
        return {
          expires: session.expires,
          user: { name: t.name ?? null, email: t.email ?? null },
          ...(t.error ? { error: t.error } : {}),
          tokenInfo: tokenInfoByToken.get(t) ?? NO_TOKEN_INFO,
        } as typeof session;
      },
    },
  };
});
