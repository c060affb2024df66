import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import type { SessionRecord } from "@/lib/session/session-record";
import { setAppEnv } from "../support/app-env";

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
  store: typeof import("@/lib/session/store-instance");
  unsaved: typeof import("@/lib/session/unsaved-tokens");
  ends: typeof import("@/lib/session/end-sessions");
  logger: typeof import("@/lib/logging/logger");
};
let m: Modules;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  ({ url: issuer, signingKey } = standIn);
  setAppEnv(issuer, {
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
    store: await import("@/lib/session/store-instance"),
    unsaved: await import("@/lib/session/unsaved-tokens"),
    ends: await import("@/lib/session/end-sessions"),
    logger: await import("@/lib/logging/logger"),
  };
  standIn.tokenStatus = 200;
  standIn.tokenDelayMs = 0;
  standIn.jwksFailure = undefined;
  standIn.publishRevocation = false;
  standIn.revokedTokens = [];
});

afterEach(() => {
  vi.restoreAllMocks();
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
    await m.sessions.saveSession(id, { ...session!.record, accessTokenExpiresAt: 0 });
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

  it("leaves a session signed out when it ends while its refresh is held at the token endpoint", async () => {
    standIn.tokenAnswer = rotated;
    standIn.tokenDelayMs = 1_000;
    const id = await expiredSession();
    const callsBefore = standIn.tokenCalls;
    const refreshing = refresh(id);
    // Once the token call has reached the token endpoint (held there 1 s), however long that took:
    await vi.waitFor(() => expect(standIn.tokenCalls).toBe(callsBefore + 1), { timeout: 30_000, interval: 10 });
    // "Sign out everywhere" from another browser while the token call is out.
    await m.sessions.deleteSession(id);
    expect(await refreshing).toBeNull();
    expect(await m.sessions.readSessionById(id)).toBeNull();
    // Nothing writes it back later either.
    await new Promise((r) => setTimeout(r, 600));
    expect(await m.sessions.readSessionById(id)).toBeNull();
  });

  it("writes nothing when its refresh lock was lost while the token call ran (fencing)", async () => {
    standIn.tokenAnswer = rotated;
    // Longer than one renewal interval (a third of the 5 s lock): the renewal comes back refused.
    standIn.tokenDelayMs = 2_000;
    const id = await expiredSession();
    const before = await stored(id);
    const renew = vi.spyOn(m.store.getSessionStore(), "renewLock").mockResolvedValue(false);
    const update = vi.spyOn(m.store.getSessionStore(), "update");
    const result = await refresh(id);
    expect(renew).toHaveBeenCalled();
    expect(update, "no write at all after the lock was lost").not.toHaveBeenCalled();
    expect(await stored(id)).toEqual(before);
    expect(result, "the store's session, as the next holder leaves it").toEqual(before);
  });

  it("seals again a session stored before the id was bound, and it opens only under its own id", async () => {
    const id = await expiredSession({ accessTokenExpiresAt: Math.floor(Date.now() / 1000) + 3600 });
    const store = m.store.getSessionStore();
    const envelope = (await store.get(id))!;
    const [, keyId] = envelope.sealed.split(".");
    // The same record as the previous release sealed it: AES-GCM without associated data.
    const { createCipheriv, hkdfSync, randomBytes } = await import("node:crypto");
    const key = Buffer.from(hkdfSync("sha256", process.env.AUTH_SECRET!, "", "esign session store v1", 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(await stored(id)), "utf8"), cipher.final()]);
    await store.update(id, { sealed: `v1.${keyId}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}` });
    const old = await m.sessions.readSessionById(id);
    expect(old?.resealDue).toBe(true);
    await m.refresh.refreshIfDue(old!);
    expect((await store.get(id))!.sealed).toMatch(/^v2\./);
    expect((await m.sessions.readSessionById(id))?.resealDue).toBe(false);

    // Copied under another session's id, it does not open: that session is simply not there.
    const other = await expiredSession();
    await store.update(other, { sealed: (await store.get(id))!.sealed });
    expect(await m.sessions.readSessionById(other)).toBeNull();
  });
});

describe("a token response without a usable expires_in (optional in RFC 6749 §5.1)", () => {
  const withoutExpiresIn = { access_token: "opaque-access", refresh_token: "rotated-refresh", token_type: "Bearer" };
  const strangeLifetimes: [string, Record<string, unknown>][] = [
    ["null", { expires_in: null }],
    ["0", { expires_in: 0 }],
    ["3599.5", { expires_in: 3599.5 }],
    ["negative", { expires_in: -60 }],
    ["missing", {}],
  ];

  it.each(strangeLifetimes)("keeps both tokens of a 200 whose expires_in is %s: the JWT's exp gives the lifetime, else the default", async (_label, lifetime) => {
    const { DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS } = await import("@/lib/session/token-lifetime");
    const jwtAccess = await new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: "k1" }).setExpirationTime("20m").sign(signingKey);
    standIn.tokenAnswer = { ...withoutExpiresIn, access_token: jwtAccess, ...lifetime };
    const jwtSession = await expiredSession();
    await refresh(jwtSession);
    const jwtRecord = await stored(jwtSession);
    expect(jwtRecord).toMatchObject({ accessToken: jwtAccess, refreshToken: "rotated-refresh" });
    expect(jwtRecord.accessTokenLifetime).toBeGreaterThan(19 * 60);
    expect(jwtRecord.accessTokenLifetime).toBeLessThanOrEqual(20 * 60);

    standIn.tokenAnswer = { ...withoutExpiresIn, ...lifetime };
    const opaqueSession = await expiredSession();
    await refresh(opaqueSession);
    expect(await stored(opaqueSession)).toMatchObject({ accessToken: "opaque-access", refreshToken: "rotated-refresh", accessTokenLifetime: DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS });
  });

  it("takes a positive whole expires_in, also as numeric text, as the lifetime", async () => {
    for (const expiresIn of [90, "90"]) {
      standIn.tokenAnswer = { ...withoutExpiresIn, expires_in: expiresIn };
      const id = await expiredSession();
      await refresh(id);
      expect(await stored(id)).toMatchObject({ accessToken: "opaque-access", refreshToken: "rotated-refresh", accessTokenLifetime: 90 });
    }
  });

  it("keeps the tokens of the sign-in's code exchange too, whatever its expires_in (Auth.js reads it through the provider's fetch)", async () => {
    const { customFetch } = await import("next-auth");
    const { esignProvider } = await import("@/lib/auth/esign-provider");
    const { getConfig } = await import("@/lib/env");
    const providerFetch = (esignProvider(getConfig()) as unknown as Record<symbol, (input: string, init?: RequestInit) => Promise<Response>>)[customFetch]!;
    for (const [label, lifetime] of strangeLifetimes) {
      standIn.tokenAnswer = { ...withoutExpiresIn, ...lifetime };
      const body = await (await providerFetch(`${issuer}/connect/token`, { method: "POST", body: "grant_type=authorization_code" })).json();
      expect(body, label).toEqual(withoutExpiresIn);
    }
    standIn.tokenAnswer = { ...withoutExpiresIn, expires_in: "3600" };
    expect(await (await providerFetch(`${issuer}/connect/token`, { method: "POST" })).json()).toEqual({ ...withoutExpiresIn, expires_in: 3600 });
  });

  it("keeps the new tokens, with the lifetime the access token's exp gives", async () => {
    const jwtAccess = await new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: "k1" }).setExpirationTime("20m").sign(signingKey);
    standIn.tokenAnswer = { ...withoutExpiresIn, access_token: jwtAccess };
    const id = await expiredSession();
    await refresh(id);
    const record = await stored(id);
    expect(record).toMatchObject({ accessToken: jwtAccess, refreshToken: "rotated-refresh" });
    expect(record.accessTokenLifetime).toBeGreaterThan(19 * 60);
    expect(record.accessTokenLifetime).toBeLessThanOrEqual(20 * 60);
  });

  it("keeps an opaque token for the stated default lifetime, and says so in the log once", async () => {
    const { DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS } = await import("@/lib/session/token-lifetime");
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("esign.tokenLifetimeLogged")];
    const warn = vi.spyOn(m.logger.getLogger(), "warn");
    standIn.tokenAnswer = withoutExpiresIn;
    const first = await expiredSession();
    const second = await expiredSession();
    await refresh(first);
    await refresh(second);
    for (const id of [first, second]) {
      expect(await stored(id)).toMatchObject({ accessToken: "opaque-access", refreshToken: "rotated-refresh", accessTokenLifetime: DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS });
    }
    const lines = warn.mock.calls.filter(([entry]) => JSON.stringify(entry).includes("without expires_in"));
    expect(lines).toHaveLength(1);
  });
});

describe("sign out everywhere while a refresh is in flight", () => {
  it("revokes the refresh token the refresh wrote between the listing and the delete, and the session stays ended", async () => {
    standIn.publishRevocation = true;
    standIn.tokenAnswer = { ...rotated, refresh_token: "written-after-the-listing" };
    const id = await expiredSession();
    const listed = [(await m.sessions.readSessionById(id))!];
    // The delay injected into the store's delete: the refresh runs and writes while the delete waits.
    const store = m.store.getSessionStore();
    const remove = store.delete.bind(store);
    vi.spyOn(store, "delete").mockImplementation(async (sid) => {
      await refresh(sid);
      return remove(sid);
    });
    await m.ends.endSessions(listed, "signed out everywhere");
    expect(await m.sessions.readSessionById(id)).toBeNull();
    expect(standIn.revokedTokens).toContain("written-after-the-listing");
  });
});

describe("tokens kept in memory while the store cannot take them", () => {
  const times = (expiresInMs: number) => ({ sealed: "", subject: "", createdAt: Date.now(), lastSeenAt: Date.now(), expiresAt: Date.now() + expiresInMs });
  const record: SessionRecord = { subject: "alice", accessToken: "kept-access", refreshToken: "kept-refresh", device: { browser: "Test", os: "Test" } };
  const storeDown = () => Promise.reject(new Error("store unavailable"));

  it("serve this process's requests and are offered to the store until it takes them", async () => {
    let calls = 0;
    const save = vi.fn(() => (++calls < 3 ? storeDown() : Promise.resolve("written" as const)));
    m.unsaved.keepUnsavedTokens("kept-1", record, times(60_000), save);
    expect((await m.sessions.readSessionById("kept-1"))?.record.accessToken).toBe("kept-access");
    // However slowly the retries come, they end with the third try, the one the store takes.
    await vi.waitFor(() => expect(m.unsaved.unsavedSession("kept-1")).toBeUndefined(), { timeout: 30_000, interval: m.unsaved.UNSAVED_RETRY_MS });
    expect(save).toHaveBeenCalledTimes(3);
  });

  it("revoke their refresh token at the service when the session ended meanwhile (signed out everywhere through another instance)", async () => {
    standIn.publishRevocation = true;
    // The store is back, and the conditional write finds the session deleted: another instance ended it, with
    // the refresh token it had listed, not this one.
    const save = vi.fn(() => Promise.resolve("gone" as const));
    m.unsaved.keepUnsavedTokens("kept-gone", { ...record, refreshToken: "kept-refresh-of-an-ended-session" }, times(60_000), save);
    await vi.waitFor(() => expect(standIn.revokedTokens).toContain("kept-refresh-of-an-ended-session"), { timeout: 30_000, interval: m.unsaved.UNSAVED_RETRY_MS });
    expect(m.unsaved.unsavedSession("kept-gone")).toBeUndefined();
    expect(save).toHaveBeenCalledTimes(1);
    // The same at shutdown's last try.
    m.unsaved.keepUnsavedTokens("kept-gone-at-shutdown", { ...record, refreshToken: "kept-refresh-at-shutdown" }, times(60_000), save);
    expect(await m.unsaved.flushUnsavedTokens()).toEqual({ saved: 0, lost: 1 });
    expect(standIn.revokedTokens).toContain("kept-refresh-at-shutdown");
  });

  it("go at the session's expiry, retries stopped", async () => {
    const save = vi.fn(storeDown);
    m.unsaved.keepUnsavedTokens("kept-2", record, times(300), save);
    expect(m.unsaved.unsavedSession("kept-2")).toBeDefined();
    await new Promise((r) => setTimeout(r, 500));
    expect(m.unsaved.unsavedSession("kept-2")).toBeUndefined();
    const calls = save.mock.calls.length;
    await new Promise((r) => setTimeout(r, 3 * m.unsaved.UNSAVED_RETRY_MS));
    expect(save.mock.calls.length).toBe(calls);
    // Kept for a session already expired: not kept at all.
    m.unsaved.keepUnsavedTokens("kept-3", record, times(-1), save);
    expect(m.unsaved.unsavedSession("kept-3")).toBeUndefined();
  });

  it("go when the session is deleted through this process, and are never written back", async () => {
    const save = vi.fn(storeDown);
    m.unsaved.keepUnsavedTokens("kept-4", record, times(60_000), save);
    await m.sessions.deleteSession("kept-4");
    const calls = save.mock.calls.length;
    expect(await m.sessions.readSessionById("kept-4")).toBeNull();
    await new Promise((r) => setTimeout(r, 3 * m.unsaved.UNSAVED_RETRY_MS));
    expect(save.mock.calls.length).toBe(calls);
  });

  it("get one last try at shutdown, which counts what the store took and what it did not", async () => {
    const taken = vi.fn(() => Promise.resolve("written" as const));
    m.unsaved.keepUnsavedTokens("kept-5", record, times(60_000), taken);
    m.unsaved.keepUnsavedTokens("kept-6", record, times(60_000), storeDown);
    expect(await m.unsaved.flushUnsavedTokens()).toEqual({ saved: 1, lost: 1 });
    expect(taken).toHaveBeenCalledTimes(1);
    expect(m.unsaved.unsavedSession("kept-5")).toBeUndefined();
    expect(m.unsaved.unsavedSession("kept-6")).toBeUndefined();
  });
});
