import { generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import type { SessionToken } from "@/lib/auth/session-token";

// A stand-in auth server: discovery, one signing key, and a token endpoint answering whatever the test sets.
let standIn: StandInIssuer;
let issuer: string;
let signingKey: CryptoKey;
let rotateTokensIfNeeded: (token: SessionToken) => Promise<SessionToken>;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  ({ url: issuer, signingKey } = standIn);
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    ESIGN_AUTH_URL: issuer,
    ESIGN_API_URL: "http://127.0.0.1:1",
    ESIGN_CLIENT_ID: "partner-app",
    ESIGN_CLIENT_SECRET: "unit-test-client-secret",
  });
  ({ rotateTokensIfNeeded } = await import("@/lib/auth/rotate-tokens"));
});

afterAll(() => standIn.close());

function idToken(overrides: { key?: CryptoKey; sub?: string } = {}) {
  return new SignJWT({})
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setSubject(overrides.sub ?? "alice")
    .setIssuer(issuer)
    .setAudience("partner-app")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(overrides.key ?? signingKey);
}

let counter = 0;
/** An expired session; each gets its own refresh token so the single-flight store never replays another test's result. */
function expiredSession(): SessionToken {
  counter += 1;
  return {
    sub: "alice",
    accessToken: `old-access-${counter}`,
    refreshToken: `old-refresh-${counter}`,
    accessTokenExpiresAt: Math.floor(Date.now() / 1000) - 1,
    accessTokenLifetime: 3600,
    grantedScope: "openid email service.api offline_access",
  };
}

const rotated = { access_token: "new-access", refresh_token: "new-refresh", expires_in: 3600, token_type: "Bearer" };

describe("rotateTokensIfNeeded", () => {
  it("keeps the previously granted scope when the refresh response has no scope", async () => {
    standIn.tokenAnswer = rotated;
    const next = await rotateTokensIfNeeded(expiredSession());
    expect(next).toMatchObject({ accessToken: "new-access", grantedScope: "openid email service.api offline_access" });
    expect(next.error).toBeUndefined();
  });

  it("takes the new scope when the refresh response has one", async () => {
    standIn.tokenAnswer = { ...rotated, scope: "openid service.api" };
    expect((await rotateTokensIfNeeded(expiredSession())).grantedScope).toBe("openid service.api");
  });

  it("accepts a refresh response whose id_token verifies and names the same user", async () => {
    standIn.tokenAnswer = { ...rotated, id_token: await idToken() };
    const next = await rotateTokensIfNeeded(expiredSession());
    expect(next).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh" });
    expect(next.error).toBeUndefined();
  });

  it("ends the session when the refreshed id_token is signed by another key", async () => {
    const { privateKey: otherKey } = await generateKeyPair("RS256");
    standIn.tokenAnswer = { ...rotated, id_token: await idToken({ key: otherKey }) };
    const next = await rotateTokensIfNeeded(expiredSession());
    expect(next.error).toBe("RefreshRejected");
    expect(next.accessToken).toBeUndefined();
  });

  it("ends the session when the refreshed id_token names another user", async () => {
    standIn.tokenAnswer = { ...rotated, id_token: await idToken({ sub: "mallory" }) };
    const next = await rotateTokensIfNeeded(expiredSession());
    expect(next.error).toBe("RefreshRejected");
    expect(next.accessToken).toBeUndefined();
  });
});
