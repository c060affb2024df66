import * as o from "oauth4webapi";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { esignProvider } from "@/lib/auth/esign-provider";
import { parseConfig } from "@/lib/env";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import { setAppEnv } from "../support/app-env";

// An identity service that publishes its issuer with a trailing slash (https://tenant.example/), as several do.
let standIn: StandInIssuer;
let verifyIdToken: (token: string) => Promise<unknown>;

beforeAll(async () => {
  standIn = await startStandInIssuer({ issuerWithTrailingSlash: true });
  setAppEnv(standIn.issuer, {
    ESIGN_CLIENT_SECRET: "partner-secret",
  });
  ({ verifyIdToken } = await import("@/lib/auth/id-token"));
});

afterAll(() => standIn.close());

const idToken = (nonce: string) =>
  new SignJWT({ nonce })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setSubject("alice")
    .setIssuer(standIn.issuer)
    .setAudience("partner-app")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(standIn.signingKey);

describe("sign-in against an issuer with a trailing slash", () => {
  it("keeps the issuer exactly as configured, and still builds endpoint URLs without a double slash", () => {
    const provider = esignProvider(parseConfig(process.env));
    expect(standIn.issuer.endsWith("/")).toBe(true);
    expect(provider.issuer).toBe(standIn.issuer);
    expect(provider.token).toBe(`${standIn.url}/connect/token`);
  });

  it("passes the callback's id_token checks as Auth.js runs them (issuer from the provider, nonce)", async () => {
    const provider = esignProvider(parseConfig(process.env));
    // What @auth/core's callback builds when the provider names its token endpoint (no discovery).
    const as: o.AuthorizationServer = { issuer: provider.issuer!, token_endpoint: String(provider.token) };
    const body = { access_token: "a", token_type: "Bearer", expires_in: 60, id_token: await idToken("n-1") };
    const response = new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    const result = await o.processAuthorizationCodeResponse(as, { client_id: "partner-app" }, response, { expectedNonce: "n-1", requireIdToken: true });
    expect(o.getValidatedIdTokenClaims(result)?.iss).toBe(standIn.issuer);
  });

  it("verifies the id_token's signature and issuer against discovery", async () => {
    await expect(verifyIdToken(await idToken("n-2"))).resolves.toMatchObject({ iss: standIn.issuer, sub: "alice" });
  });
});
