import NextAuth, { type DefaultSession } from "next-auth";
import { getConfig } from "@/lib/env";
import { esignProvider } from "@/lib/auth/esign-provider";
import { safeRedirect } from "@/lib/auth/safe-redirect";
import { logAuthError } from "@/lib/auth/auth-error-log";
import { rotateTokensIfNeeded, tokenFromSignIn } from "@/lib/auth/rotate-tokens";
import { SESSION_MAX_AGE_SECONDS, type SessionError, type SessionToken } from "@/lib/auth/session-token";
import { userKeyFor } from "@/lib/auth/user-key";

/** What the browser may know about its session's tokens: facts, never the tokens themselves. */
export type TokenInfo = {
  grantedScopes: string[];
  requestedScopes: string[];
  hasRefreshToken: boolean;
  accessTokenExpiresAt: number | null;
};

declare module "next-auth" {
  interface Session {
    error?: SessionError;
    tokenInfo: TokenInfo;
    /** Keys this user's data in the browser (lib/auth/user-key.ts); null only for a session without a subject. */
    userKey: string | null;
    user: { name?: string | null; email?: string | null } & DefaultSession["user"];
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const config = getConfig();
  return {
    // Several secrets: the first encrypts, all decrypt, so a rotation keeps everyone signed in.
    secret: config.authSecrets,
    trustHost: true,
    providers: [esignProvider(config)],
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/", error: "/auth/error" },
    // Tells a stale sign-in link from a configuration error, in the log and on the error page.
    logger: { error: logAuthError },
    callbacks: {
      redirect: ({ url, baseUrl }) => safeRedirect(url, baseUrl),
      async jwt({ token, account }) {
        if (account) return tokenFromSignIn(token, account);
        return rotateTokensIfNeeded(token as SessionToken);
      },
      session({ session, token }) {
        const t = token as SessionToken;
        return {
          expires: session.expires,
          user: { name: t.name ?? null, email: t.email ?? null },
          userKey: t.sub ? userKeyFor(config.issuer, t.sub) : null,
          ...(t.error ? { error: t.error } : {}),
          tokenInfo: {
            grantedScopes: t.grantedScope?.split(" ").filter(Boolean) ?? [],
            requestedScopes: t.requestedScope?.split(" ").filter(Boolean) ?? [],
            hasRefreshToken: Boolean(t.refreshToken),
            accessTokenExpiresAt: t.accessTokenExpiresAt ?? null,
          },
        } as typeof session;
      },
    },
  };
});
