import { generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import { setAppEnv } from "../support/app-env";

// A stand-in issuer publishing discovery and one signing key (kid k1): logout tokens must come from it.
let standIn: StandInIssuer;
let verifyLogoutToken: typeof import("@/lib/auth/logout-token").verifyLogoutToken;
let InvalidLogoutTokenError: typeof import("@/lib/auth/logout-token").InvalidLogoutTokenError;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  setAppEnv(standIn.url);
  ({ verifyLogoutToken, InvalidLogoutTokenError } = await import("@/lib/auth/logout-token"));
});

afterAll(() => standIn.close());

const EVENT = "http://schemas.openid.net/event/backchannel-logout";
const now = () => Math.floor(Date.now() / 1000);
let counter = 0;

type Options = { claims?: Record<string, unknown>; omit?: string[]; key?: CryptoKey; header?: Record<string, unknown> };

/** A logout token as the service would send it, with claims replaced (`claims`) or left out (`omit`). */
function logoutToken({ claims = {}, omit = [], key, header = {} }: Options = {}) {
  const payload: JWTPayload = {
    iss: standIn.url,
    aud: "partner-app",
    iat: now(),
    jti: `jti-${++counter}`,
    sub: "alice",
    sid: "service-session-1",
    events: { [EVENT]: {} },
    ...claims,
  };
  for (const name of omit) delete payload[name];
  return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: "k1", typ: "logout+jwt", ...header }).sign(key ?? standIn.signingKey);
}

async function expectRefused(token: Promise<string>, reason: RegExp) {
  const verification = verifyLogoutToken(await token);
  await expect(verification).rejects.toBeInstanceOf(InvalidLogoutTokenError);
  await expect(verification).rejects.toThrow(reason);
}

describe("verifyLogoutToken", () => {
  it("accepts a logout token signed by the service for this client, naming sub and sid", async () => {
    await expect(verifyLogoutToken(await logoutToken({ claims: { jti: "j-valid" } }))).resolves.toEqual({
      jti: "j-valid",
      sub: "alice",
      sid: "service-session-1",
    });
  });

  it("accepts sub alone, sid alone, an audience list, an exp still ahead and a token without typ", async () => {
    await expect(verifyLogoutToken(await logoutToken({ omit: ["sid"] }))).resolves.toMatchObject({ sub: "alice" });
    await expect(verifyLogoutToken(await logoutToken({ omit: ["sub"] }))).resolves.toMatchObject({ sid: "service-session-1" });
    await expect(verifyLogoutToken(await logoutToken({ claims: { aud: ["other-app", "partner-app"] } }))).resolves.toBeTruthy();
    await expect(verifyLogoutToken(await logoutToken({ claims: { exp: now() + 120 } }))).resolves.toBeTruthy();
    await expect(verifyLogoutToken(await logoutToken({ header: { typ: undefined } }))).resolves.toBeTruthy();
  });

  it("refuses a token signed with any other key under the service's kid", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    await expectRefused(logoutToken({ key: privateKey }), /signature/i);
  });

  it("refuses a token with an old iat, an iat in the future, an exp passed, or no iat", async () => {
    await expectRefused(logoutToken({ claims: { iat: now() - 10 * 60 } }), /iat.*past/);
    await expectRefused(logoutToken({ claims: { iat: now() + 10 * 60 } }), /iat/);
    await expectRefused(logoutToken({ claims: { exp: now() - 5 * 60 } }), /exp/);
    await expectRefused(logoutToken({ omit: ["iat"] }), /iat/);
  });

  it("refuses a token for another client or from another issuer", async () => {
    await expectRefused(logoutToken({ claims: { aud: "other-app" } }), /aud/);
    await expectRefused(logoutToken({ claims: { iss: "https://evil.example" } }), /iss/);
  });

  it("refuses a token carrying a nonce (an id_token, not a logout token)", async () => {
    await expectRefused(logoutToken({ claims: { nonce: "n-1" } }), /nonce/);
  });

  it("refuses a token without the back-channel logout event, or with it not a JSON object", async () => {
    await expectRefused(logoutToken({ omit: ["events"] }), /events/);
    await expectRefused(logoutToken({ claims: { events: { "http://schemas.openid.net/event/other": {} } } }), /events/);
    await expectRefused(logoutToken({ claims: { events: { [EVENT]: "yes" } } }), /events/);
    await expectRefused(logoutToken({ claims: { events: { [EVENT]: [] } } }), /events/);
    await expectRefused(logoutToken({ claims: { events: [EVENT] } }), /events/);
  });

  it("refuses a token naming neither sub nor sid", async () => {
    await expectRefused(logoutToken({ omit: ["sub", "sid"] }), /neither/);
  });

  it("refuses a token without jti, or with a typ other than logout+jwt", async () => {
    await expectRefused(logoutToken({ omit: ["jti"] }), /jti/);
    await expectRefused(logoutToken({ header: { typ: "JWT" } }), /typ/);
  });

  it("refuses what is not a JWT at all", async () => {
    await expect(verifyLogoutToken("not-a-jwt")).rejects.toBeInstanceOf(InvalidLogoutTokenError);
  });
});
