import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errors as joseErrors, exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import { setAppEnv } from "../support/app-env";

// One reading of jose's errors for both tokens the app verifies (id_token, logout token): no keys → retry later
// (a logout answered 503 with Retry-After), a bad token → refused (400). And a logout that failed half-way
// (the store down while ending its sessions) is carried out when the service retries it.
let standIn: StandInIssuer;
let storeDir: string;
let rotated: { privateKey: CryptoKey; jwk: Record<string, unknown> };

type Modules = {
  route: typeof import("@/app/api/auth/backchannel-logout/route");
  idToken: typeof import("@/lib/auth/id-token");
  sessions: typeof import("@/lib/session/sessions");
  storeInstance: typeof import("@/lib/session/store-instance");
  keys: typeof import("@/lib/session/session-keys");
  store: typeof import("@/lib/session/session-store");
};
let m: Modules;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  storeDir = await mkdtemp(join(tmpdir(), "backchannel-keys-"));
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  rotated = { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: "k2", alg: "RS256", use: "sig" } };
  setAppEnv(standIn.url, {
    SESSION_STORE_DIR: storeDir,
  });
});

// Fresh discovery and key caches (module state) per test; the store lives on globalThis and stays.
beforeEach(async () => {
  vi.resetModules();
  m = {
    route: await import("@/app/api/auth/backchannel-logout/route"),
    idToken: await import("@/lib/auth/id-token"),
    sessions: await import("@/lib/session/sessions"),
    storeInstance: await import("@/lib/session/store-instance"),
    keys: await import("@/lib/session/session-keys"),
    store: await import("@/lib/session/session-store"),
  };
  standIn.jwksFailure = undefined;
  standIn.additionalKeys = [];
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await standIn.close();
  await rm(storeDir, { recursive: true, force: true });
});

const EVENT = "http://schemas.openid.net/event/backchannel-logout";
let counter = 0;

function logoutToken(claims: Record<string, unknown>, signer: { key: CryptoKey; kid: string } = { key: standIn.signingKey, kid: "k1" }) {
  return new SignJWT({ jti: `keys-jti-${++counter}`, events: { [EVENT]: {} }, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: signer.kid, typ: "logout+jwt" })
    .setIssuer(standIn.url)
    .setAudience("partner-app")
    .setIssuedAt()
    .sign(signer.key);
}

const post = (token: string) =>
  m.route.POST(
    new NextRequest("http://localhost:3000/api/auth/backchannel-logout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ logout_token: token }).toString(),
    }),
  );

async function signIn(subject: string) {
  const handle = await m.sessions.createSession({ subject, oidcSid: `sid-${subject}-${++counter}`, device: { browser: "Chrome 131", os: "Linux" } });
  return { live: async () => (await m.sessions.readSessionById(m.keys.storeName("session", handle))) !== null };
}

/** Moves jose's clock past its 30 s refetch cooldown (only Date: the HTTP timeouts keep real time). */
function laterBy(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
}

describe("isKeysUnavailable: jose's errors, read once for every token", () => {
  it.each([
    ["the JWKS answering other than 200 (jose's generic error)", new joseErrors.JOSEError("Expected 200 OK from the JSON Web Key Set HTTP response"), true],
    ["the JWKS timing out", new joseErrors.JWKSTimeout(), true],
    ["the JWKS not a key set", new joseErrors.JWKSInvalid(), true],
    ["the network or discovery failing (not jose's)", new TypeError("fetch failed"), true],
    ["a kid still unknown after a refetch", new joseErrors.JWKSNoMatchingKey(), false],
    ["a bad signature", new joseErrors.JWSSignatureVerificationFailed(), false],
    ["an expired token", new joseErrors.JWTExpired("expired", {}), false],
    ["a wrong audience", new joseErrors.JWTClaimValidationFailed('unexpected "aud" claim value', {}), false],
    ["a malformed token", new joseErrors.JWSInvalid(), false],
  ])("%s → %s", (_what, error, unavailable) => {
    expect(m.idToken.isKeysUnavailable(error)).toBe(unavailable);
  });
});

describe("back-channel logout when the keys cannot be had", () => {
  it("answers 503 with Retry-After for a rotated key while the JWKS is down, then 200 and ends the session on the retry", async () => {
    const alice = await signIn("alice");
    // The app has the key set from moments ago (k1 only); the service rotates to k2 and its JWKS goes down.
    await m.idToken.serviceKeys();
    expect((await post(await logoutToken({ sub: "bob" }))).status).toBe(200);
    standIn.additionalKeys = [rotated.jwk];
    standIn.jwksFailure = 503;
    const token = await logoutToken({ sub: "alice" }, { key: rotated.privateKey, kid: "k2" });

    // Within jose's cooldown: k2 cannot be looked up yet.
    const withinCooldown = await post(token);
    expect(withinCooldown.status).toBe(503);
    expect(withinCooldown.headers.get("retry-after")).toBe("5");
    expect(await withinCooldown.json()).toMatchObject({ error: "temporarily_unavailable" });
    // After it: jose refetches, and the JWKS answers 503.
    laterBy(31_000);
    expect((await post(token)).status).toBe(503);
    expect(await alice.live()).toBe(true);

    standIn.jwksFailure = undefined;
    laterBy(62_000);
    expect((await post(token)).status).toBe(200);
    expect(await alice.live()).toBe(false);
  });

  it("refuses with 400 a kid still unknown once the key set was fetched for it", async () => {
    const alice = await signIn("alice");
    const { privateKey } = await generateKeyPair("RS256");
    const res = await post(await logoutToken({ sub: "alice" }, { key: privateKey, kid: "forged" }));
    expect(res.status).toBe(400);
    expect(await alice.live()).toBe(true);
  });

  it("keeps an id_token with a key it cannot look up yet as unchecked, and refuses one whose key is still unknown after a refetch", async () => {
    const idToken = (signer: { key: CryptoKey; kid: string }) =>
      new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: signer.kid }).setSubject("alice").setIssuer(standIn.url).setAudience("partner-app").setIssuedAt().setExpirationTime("5m").sign(signer.key);
    await m.idToken.verifyIdToken(await idToken({ key: standIn.signingKey, kid: "k1" }));
    standIn.additionalKeys = [rotated.jwk];
    const pending = await m.idToken.verifyIdToken(await idToken({ key: rotated.privateKey, kid: "k2" })).catch((error: unknown) => error);
    expect(m.idToken.isKeysUnavailable(pending)).toBe(true);
    laterBy(31_000);
    await expect(m.idToken.verifyIdToken(await idToken({ key: rotated.privateKey, kid: "k2" }))).resolves.toMatchObject({ sub: "alice" });
    laterBy(62_000);
    const forged = await m.idToken.verifyIdToken(await idToken({ key: (await generateKeyPair("RS256")).privateKey, kid: "k3" })).catch((error: unknown) => error);
    expect(forged).toBeInstanceOf(joseErrors.JWKSNoMatchingKey);
    expect(m.idToken.isKeysUnavailable(forged)).toBe(false);
  });
});

describe("back-channel logout when the store fails while ending its sessions", () => {
  it("answers 503 without spending the token, so that the service's retry ends the sessions", async () => {
    const alice = await signIn("dave");
    const store = m.storeInstance.getSessionStore();
    vi.spyOn(store, "delete").mockRejectedValueOnce(new m.store.SessionStoreUnavailableError("store went away"));
    const token = await logoutToken({ sub: "dave" });
    const first = await post(token);
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("5");
    expect(await alice.live()).toBe(true);

    const retry = await post(token);
    expect(retry.status).toBe(200);
    expect(await alice.live()).toBe(false);
    // Spent now: the same token again is a replay.
    expect((await post(token)).status).toBe(400);
  });

  it("answers 503 when the claim itself fails, ending nothing, and the retry ends the sessions", async () => {
    const alice = await signIn("erin");
    const store = m.storeInstance.getSessionStore();
    vi.spyOn(store, "claimOnce").mockRejectedValueOnce(new m.store.SessionStoreUnavailableError("store went away"));
    const token = await logoutToken({ sub: "erin" });
    expect((await post(token)).status).toBe(503);
    expect(await alice.live()).toBe(true);
    expect((await post(token)).status).toBe(200);
    expect(await alice.live()).toBe(false);
  });
});
