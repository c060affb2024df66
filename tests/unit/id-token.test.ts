import { generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import { setAppEnv } from "../support/app-env";

// A stand-in issuer publishing discovery and one signing key; the app must accept only tokens it signed.
let standIn: StandInIssuer;
let issuer: string;
let signingKey: CryptoKey;
let verifyIdToken: (token: string) => Promise<unknown>;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  ({ url: issuer, signingKey } = standIn);
  setAppEnv(issuer);
  ({ verifyIdToken } = await import("@/lib/auth/id-token"));
});

afterAll(() => standIn.close());

function idToken(overrides: { key?: CryptoKey; iss?: string; aud?: string; exp?: string } = {}) {
  return new SignJWT({ email: "alice@example.com" })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setSubject("alice")
    .setIssuer(overrides.iss ?? issuer)
    .setAudience(overrides.aud ?? "partner-app")
    .setIssuedAt()
    .setExpirationTime(overrides.exp ?? "5m")
    .sign(overrides.key ?? signingKey);
}

describe("verifyIdToken", () => {
  it("accepts an id_token signed by the service's published key for this client", async () => {
    await expect(verifyIdToken(await idToken())).resolves.toMatchObject({ sub: "alice", aud: "partner-app" });
  });

  it("rejects an id_token signed with any other key", async () => {
    const { privateKey: otherKey } = await generateKeyPair("RS256");
    await expect(verifyIdToken(await idToken({ key: otherKey }))).rejects.toThrow(/signature/i);
  });

  it("rejects an id_token for another client, from another issuer, or expired", async () => {
    await expect(verifyIdToken(await idToken({ aud: "someone-else" }))).rejects.toThrow(/aud/);
    await expect(verifyIdToken(await idToken({ iss: "https://evil.example" }))).rejects.toThrow(/iss/);
    await expect(verifyIdToken(await idToken({ exp: "-1m" }))).rejects.toThrow(/exp/);
  });
});
