import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import type { SessionRecord } from "@/lib/session/session-record";

// A stand-in auth server (discovery, one key, a token endpoint answering what each test sets) and the embedded
// session store in a directory of this file's own.
let standIn: StandInIssuer;
let issuer: string;
let signingKey: CryptoKey;
const storeDir = mkdtempSync(join(tmpdir(), "esign-refresh-test-"));

type Modules = {
  sessions: typeof import("@/lib/session/sessions");
  refresh: typeof import("@/lib/session/session-refresh");
  keys: typeof import("@/lib/session/session-keys");
};
let m: Modules;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  ({ url: issuer, signingKey } = standIn);
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    ESIGN_AUTH_URL: issuer,
    ESIGN_API_URL: "http://127.0.0.1:1",
    ESIGN_CLIENT_ID: "partner-app",
    ESIGN_CLIENT_SECRET: "unit-test-client-secret",
    SESSION_STORE_DIR: storeDir,
  });
});

// Fresh discovery and key caches per test (they are module state); the store lives on globalThis and stays.
beforeEach(async () => {
  vi.resetModules();
  m = {
    sessions: await import("@/lib/session/sessions"),
    refresh: await import("@/lib/session/session-refresh"),
    keys: await import("@/lib/session/session-keys"),
  };
  standIn.tokenStatus = 200;
  standIn.tokenDelayMs = 0;
  standIn.jwksFailure = undefined;
});

afterAll(async () => {
  await standIn.close();
  rmSync(storeDir, { recursive: true, force: true });
});

function idToken(overrides: { key?: CryptoKey; sub?: string; sid?: string } = {}) {
  return new SignJWT(overrides.sid ? { sid: overrides.sid } : {})
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setSubject(overrides.sub ?? "alice")
    .setIssuer(issuer)
    .setAudience("partner-app")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(overrides.key ?? signingKey);
}

let counter = 0;
/** A stored session whose access token has lapsed; returns its store id. */
async function expiredSession(overrides: Partial<SessionRecord> = {}): Promise<string> {
  counter += 1;
  const handle = await m.sessions.createSession({
    subject: "alice",
    accessToken: `old-access-${counter}`,
    refreshToken: `old-refresh-${counter}`,
    accessTokenExpiresAt: Math.floor(Date.now() / 1000) - 1,
    accessTokenLifetime: 3600,
    grantedScope: "openid email service.api offline_access",
    device: { browser: "Test", os: "Test" },
    ...overrides,
  });
  return m.keys.storeName("session", handle);
}

async function refresh(id: string): Promise<SessionRecord | null> {
  const session = await m.sessions.readSessionById(id);
  return m.refresh.refreshIfDue(session!);
}

const stored = async (id: string) => (await m.sessions.readSessionById(id))!.record;
const rotated = { access_token: "new-access", refresh_token: "new-refresh", expires_in: 3600, token_type: "Bearer" };

describe("refreshIfDue", () => {
  it("stores the rotated tokens and keeps the granted scope when the response has none", async () => {
    standIn.tokenAnswer = rotated;
    const id = await expiredSession();
    await refresh(id);
    expect(await stored(id)).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh", grantedScope: "openid email service.api offline_access" });
  });

  it("refreshes once for many requests of one session arriving together", async () => {
    standIn.tokenAnswer = rotated;
    standIn.tokenDelayMs = 200;
    const id = await expiredSession();
    const before = standIn.tokenCalls;
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(id)));
    expect(standIn.tokenCalls - before).toBe(1);
    expect(new Set(results.map((r) => r?.accessToken))).toEqual(new Set(["new-access"]));
  });

  it("leaves a token that is not due alone", async () => {
    const id = await expiredSession({ accessTokenExpiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const before = standIn.tokenCalls;
    expect((await refresh(id))?.accessToken).toMatch(/^old-access-/);
    expect(standIn.tokenCalls).toBe(before);
  });

  it("accepts a refreshed id_token that verifies, and takes its sid", async () => {
    standIn.tokenAnswer = { ...rotated, id_token: await idToken({ sid: "op-session-2" }) };
    const id = await expiredSession({ oidcSid: "op-session-1" });
    await refresh(id);
    const record = await stored(id);
    expect(record).toMatchObject({ accessToken: "new-access", idTokenUnverified: false, oidcSid: "op-session-2" });
    expect(record.error).toBeUndefined();
  });

  it("ends the session when the refreshed id_token is signed by another key", async () => {
    const { privateKey: otherKey } = await generateKeyPair("RS256");
    standIn.tokenAnswer = { ...rotated, id_token: await idToken({ key: otherKey }) };
    const id = await expiredSession();
    await refresh(id);
    const record = await stored(id);
    expect(record.error).toBe("RefreshRejected");
    expect(record.accessToken).toBeUndefined();
    expect(record.refreshToken).toBeUndefined();
  });

  it("ends the session when the refreshed id_token names another user", async () => {
    standIn.tokenAnswer = { ...rotated, id_token: await idToken({ sub: "mallory" }) };
    const id = await expiredSession();
    await refresh(id);
    expect((await stored(id)).error).toBe("RefreshRejected");
  });

  it("keeps the new tokens when the keys cannot be fetched, and checks the id_token at the next refresh", async () => {
    standIn.jwksFailure = 503;
    standIn.tokenAnswer = { ...rotated, id_token: await idToken() };
    const id = await expiredSession();
    await refresh(id);
    // The old refresh token is spent: the session must hold the new one, not retry the old.
    expect(await stored(id)).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh", idTokenUnverified: true });
    expect((await stored(id)).error).toBeUndefined();

    standIn.jwksFailure = undefined;
    standIn.tokenAnswer = { ...rotated, access_token: "newer-access", refresh_token: "newer-refresh" };
    const session = await m.sessions.readSessionById(id);
    await m.sessions.writeSession(id, { ...session!.record, accessTokenExpiresAt: 0 }, session!.envelope);
    await refresh(id);
    expect(await stored(id)).toMatchObject({ accessToken: "newer-access", refreshToken: "newer-refresh" });
    expect((await stored(id)).error).toBeUndefined();
  });

  it("ends the session at the next refresh when the id_token kept unverified turns out bad", async () => {
    const { privateKey: otherKey } = await generateKeyPair("RS256");
    const id = await expiredSession({ idToken: await idToken({ key: otherKey }), idTokenUnverified: true });
    const before = standIn.tokenCalls;
    await refresh(id);
    expect((await stored(id)).error).toBe("RefreshRejected");
    expect(standIn.tokenCalls, "the refresh token was not redeemed").toBe(before);
  });

  it("ends the session when the token endpoint refuses the refresh token", async () => {
    standIn.tokenStatus = 400;
    standIn.tokenAnswer = { error: "invalid_grant" };
    const id = await expiredSession();
    await refresh(id);
    expect((await stored(id)).error).toBe("RefreshRejected");
  });

  it("keeps the session unchanged through a token endpoint outage", async () => {
    standIn.tokenStatus = 503;
    standIn.tokenAnswer = { error: "temporarily_unavailable" };
    const id = await expiredSession();
    const before = await stored(id);
    await refresh(id);
    expect(await stored(id)).toEqual(before);
  });
});
