import "server-only";
import { errors as joseErrors } from "jose";
import type { Account } from "next-auth";
import { getConfig } from "@/lib/env";
import { refreshTokens, TokenRefreshError } from "@/lib/esign/client";
import type { TokenResponse } from "@/lib/esign/schemas";
import { verifyIdToken } from "@/lib/auth/id-token";
import { getRefreshStore } from "@/lib/auth/refresh-store";
import { isAccessTokenExpired, needsRefresh, type SessionToken } from "@/lib/auth/session-token";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { recordRefresh } from "@/lib/metrics/refresh";

type IssuedTokens = Pick<
  SessionToken,
  "accessToken" | "refreshToken" | "accessTokenExpiresAt" | "accessTokenLifetime" | "grantedScope"
>;

function issuedTokens(response: TokenResponse, previousRefreshToken?: string): IssuedTokens {
  return {
    accessToken: response.access_token,
    // The service rotates on every refresh; keep the old one only if a response ever omits it.
    refreshToken: response.refresh_token ?? previousRefreshToken,
    accessTokenExpiresAt: Math.floor(Date.now() / 1000) + response.expires_in,
    accessTokenLifetime: response.expires_in,
    grantedScope: response.scope,
  };
}

/**
 * OIDC Core §12.2: an id_token in a refresh response must verify like the sign-in one and name the same user.
 * A failed check ends the session, unless the keys could not be fetched (then the refresh is retried).
 */
async function verifyRefreshedIdToken(response: TokenResponse, subject: string | undefined): Promise<void> {
  if (!response.id_token) return;
  let claimedSubject: string | undefined;
  try {
    claimedSubject = (await verifyIdToken(response.id_token)).sub;
  } catch (error) {
    const transient = !(error instanceof joseErrors.JOSEError) || error instanceof joseErrors.JWKSTimeout;
    const detail = error instanceof Error ? error.message : String(error);
    throw new TokenRefreshError(transient ? "unavailable" : "rejected", `refreshed id_token not verified: ${detail}`);
  }
  if (subject && claimedSubject !== subject) {
    throw new TokenRefreshError("rejected", "refreshed id_token names another subject");
  }
}

/** Builds the session token from a completed sign-in, after verifying the id_token's signature. */
export async function tokenFromSignIn(token: SessionToken, account: Account): Promise<SessionToken> {
  if (!account.access_token) throw new Error("token response lacks access_token");
  if (account.id_token) await verifyIdToken(account.id_token);
  const expiresIn = account.expires_in ?? (account.expires_at ? account.expires_at - Math.floor(Date.now() / 1000) : 3600);
  return {
    name: token.name,
    email: token.email,
    sub: account.providerAccountId,
    idToken: account.id_token,
    ...issuedTokens(
      {
        access_token: account.access_token,
        expires_in: expiresIn,
        refresh_token: account.refresh_token,
        scope: account.scope,
        token_type: "Bearer",
      },
      undefined,
    ),
    requestedScope: getConfig().scopes,
  };
}

/**
 * Refresh-token rotation for the jwt callback: refreshes shortly before expiry, at most once per
 * refresh token across the process (see refresh-store.ts). Runs from proxy.ts and the Auth.js
 * route, both of which can write the rotated cookie back.
 */
export async function rotateTokensIfNeeded(token: SessionToken): Promise<SessionToken> {
  if (!needsRefresh(token)) return token;
  const refreshToken = token.refreshToken;
  if (!refreshToken) {
    // Without offline_access (the shared development client) the session ends with the access token.
    return isAccessTokenExpired(token) ? withoutTokens(token, "SessionExpired") : token;
  }
  try {
    const issued = await getRefreshStore().run(refreshToken, async () => {
      try {
        const response = await refreshTokens(refreshToken);
        await verifyRefreshedIdToken(response, token.sub);
        recordRefresh("refreshed");
        return issuedTokens(response, refreshToken);
      } catch (error) {
        // Counted where the token endpoint was called; requests sharing this outcome count as waited or replayed.
        recordRefresh(error instanceof TokenRefreshError && error.reason === "unavailable" ? "deferred" : "rejected");
        throw error;
      }
    });
    // A refresh response without `scope` means the scope is unchanged (RFC 6749 §5.1).
    return { ...token, ...issued, grantedScope: issued.grantedScope ?? token.grantedScope };
  } catch (error) {
    if (error instanceof TokenRefreshError && error.reason === "unavailable") {
      // A blip at the token endpoint must not sign anyone out: keep the session and try again next request.
      getLogger().warn({ msg: `token refresh deferred: ${error.message}`, requestId: currentRequestId() });
      return token;
    }
    getLogger().warn({ msg: `token refresh failed, session ends: ${error instanceof Error ? error.message : String(error)}`, requestId: currentRequestId() });
    return withoutTokens(token, "RefreshRejected");
  }
}

function withoutTokens(token: SessionToken, error: SessionToken["error"]): SessionToken {
  const rest = { ...token };
  delete rest.accessToken;
  delete rest.refreshToken;
  return { ...rest, error };
}
