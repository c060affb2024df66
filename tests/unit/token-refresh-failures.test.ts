import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import type { SessionRecord } from "@/lib/session/session-record";
import { setAppEnv } from "../support/app-env";

// How a failed refresh is read (the token endpoint's error code first, its status only without one) and what each
// case does to the session: a refused refresh token ends it, a refused client (a deploy's wrong secret) keeps it.
let standIn: StandInIssuer;
const storeDir = mkdtempSync(join(tmpdir(), "esign-refresh-failures-"));

type Modules = {
  client: typeof import("@/lib/esign/client");
  sessions: typeof import("@/lib/session/sessions");
  refresh: typeof import("@/lib/session/session-refresh");
  keys: typeof import("@/lib/session/session-keys");
  registry: typeof import("@/lib/metrics/registry");
  logger: typeof import("@/lib/logging/logger");
};
let m: Modules;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  setAppEnv(standIn.url, {
    ESIGN_CLIENT_SECRET: "unit-test-client-secret",
    SESSION_STORE_DIR: storeDir,
    // Only read: metrics are recorded when something could scrape them.
    METRICS_PORT: "4749",
  });
});

beforeEach(async () => {
  vi.resetModules();
  m = {
    client: await import("@/lib/esign/client"),
    sessions: await import("@/lib/session/sessions"),
    refresh: await import("@/lib/session/session-refresh"),
    keys: await import("@/lib/session/session-keys"),
    registry: await import("@/lib/metrics/registry"),
    logger: await import("@/lib/logging/logger"),
  };
  m.registry.getMetricsRegistry().resetMetrics();
  standIn.tokenStatus = 200;
  standIn.tokenAnswer = {};
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await standIn.close();
  rmSync(storeDir, { recursive: true, force: true });
});

/** The token endpoint answers exactly this (fetch stubbed: no body, or a body of any type, as a service might). */
function tokenEndpointAnswers(status: number, body: string, headers: Record<string, string> = {}) {
  vi.stubGlobal("fetch", vi.fn(async () => new Response(body || null, { status, headers })));
}

const json = { "content-type": "application/json" };

async function metric(name: string, labels = ""): Promise<number> {
  const text = await m.registry.getMetricsRegistry().metrics();
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.split(" ")[1]) : 0;
}

describe("refreshTokens reads the token endpoint's answer", () => {
  const cases: [string, number, string, Record<string, string>, string, boolean][] = [
    ["invalid_grant in a 400", 400, '{"error":"invalid_grant","error_description":"grant request is invalid"}', json, "rejected", true],
    ["invalid_grant in a 401", 401, '{"error":"invalid_grant"}', json, "rejected", true],
    ["invalid_client in a 401", 401, '{"error":"invalid_client","error_description":"client authentication failed"}', json, "misconfigured", false],
    ["invalid_client in a 400 (the code decides, not the status)", 400, '{"error":"invalid_client"}', json, "misconfigured", false],
    ["unauthorized_client in a 400", 400, '{"error":"unauthorized_client"}', json, "misconfigured", false],
    ["invalid_client in a WWW-Authenticate challenge", 401, "", { "www-authenticate": 'Basic realm="token", error="invalid_client"' }, "misconfigured", false],
    ["a 400 without a body (the spec's 'authentication error')", 400, "", {}, "rejected", false],
    ["a 400 in plain text", 400, "Bad Request", { "content-type": "text/plain" }, "rejected", false],
    ["a 401 without a body (the spec's 'validation failed')", 401, "", {}, "misconfigured", false],
    ["another error code", 400, '{"error":"invalid_request"}', json, "unavailable", false],
    ["a 503", 503, '{"error":"temporarily_unavailable"}', json, "unavailable", false],
    ["a 500 naming invalid_grant (5xx bodies are not OAuth errors)", 500, '{"error":"invalid_grant"}', json, "unavailable", false],
    ["a 200 without an access token", 200, '{"token_type":"Bearer","expires_in":3600}', json, "unavailable", false],
  ];

  it.each(cases)("%s", async (_what, status, body, headers, reason, reuse) => {
    tokenEndpointAnswers(status, body, headers);
    await expect(m.client.refreshTokens("rt")).rejects.toMatchObject({ name: "TokenRefreshError", reason });
    expect(await metric("esign_refresh_reuse_suspects_total")).toBe(reuse ? 1 : 0);
  });

  it("an unreachable endpoint is unavailable", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("fetch failed"))));
    await expect(m.client.refreshTokens("rt")).rejects.toMatchObject({ reason: "unavailable", message: expect.stringContaining("no answer") });
  });

  it("sends the refresh as the spec shows it, with the client's secret as configured", async () => {
    const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(
      async () => new Response('{"access_token":"at","token_type":"Bearer","expires_in":60}', { headers: json }),
    );
    vi.stubGlobal("fetch", fetch);
    await expect(m.client.refreshTokens("rt-1")).resolves.toMatchObject({ access_token: "at", expires_in: 60 });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${standIn.url}/connect/token`);
    const form = new URLSearchParams(String(init.body));
    expect(Object.fromEntries(form)).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rt-1",
      client_id: "partner-app",
      client_secret: "unit-test-client-secret",
    });
  });

  it("with client_secret_basic, sends the secret in a Basic header and client_id in the form, as the spec lists it", async () => {
    process.env.ESIGN_TOKEN_AUTH_METHOD = "client_secret_basic";
    try {
      vi.resetModules();
      const client = await import("@/lib/esign/client");
      const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(
        async () => new Response('{"access_token":"at","token_type":"Bearer","expires_in":60}', { headers: json }),
      );
      vi.stubGlobal("fetch", fetch);
      await client.refreshTokens("rt-2");
      const init = fetch.mock.calls[0]![1];
      // Both parts form-encoded (RFC 6749 §2.3.1) as Auth.js's code exchange sends them: the same library.
      const basic = /^Basic (.+)$/.exec(new Headers(init.headers).get("authorization") ?? "")?.[1] ?? "";
      expect(atob(basic).split(":").map(decodeURIComponent)).toEqual(["partner-app", "unit-test-client-secret"]);
      expect(Object.fromEntries(new URLSearchParams(String(init.body)))).toEqual({ grant_type: "refresh_token", refresh_token: "rt-2", client_id: "partner-app" });
    } finally {
      delete process.env.ESIGN_TOKEN_AUTH_METHOD;
    }
  });

  it("reads a new id_token for another client or issuer as a refusal: the session ends, its refresh token spent", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const idToken = (audience: string, issuer: string) =>
      new SignJWT({}).setProtectedHeader({ alg: "RS256" }).setSubject("alice").setIssuer(issuer).setAudience(audience).setIssuedAt().setExpirationTime("5m").sign(privateKey);
    for (const token of [await idToken("another-app", standIn.url), await idToken("partner-app", "https://elsewhere.example")]) {
      tokenEndpointAnswers(200, JSON.stringify({ access_token: "at", token_type: "Bearer", expires_in: 60, id_token: token }), json);
      await expect(m.client.refreshTokens("rt")).rejects.toMatchObject({ reason: "rejected", message: expect.stringContaining("id_token") });
    }
  });

  it("revokes with the client's authentication as configured, through the endpoint discovery published", async () => {
    const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(async () => new Response(null, { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    await expect(m.client.revokeToken(`${standIn.url}/connect/revocation`, "rt-9", "refresh_token")).resolves.toBe(true);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${standIn.url}/connect/revocation`);
    expect(Object.fromEntries(new URLSearchParams(String(init.body)))).toEqual({
      token: "rt-9",
      token_type_hint: "refresh_token",
      client_id: "partner-app",
      client_secret: "unit-test-client-secret",
    });
    tokenEndpointAnswers(503, "");
    await expect(m.client.revokeToken(`${standIn.url}/connect/revocation`, "rt-9", "refresh_token")).resolves.toBe(false);
  });

  it("logs a refused client once per outage, with the fix, and again after it was fixed and broke anew", async () => {
    const error = vi.spyOn(m.logger.getLogger(), "error");
    tokenEndpointAnswers(401, '{"error":"invalid_client"}', json);
    for (let i = 0; i < 3; i++) await expect(m.client.refreshTokens("rt")).rejects.toMatchObject({ reason: "misconfigured" });
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]![0]).toMatchObject({ msg: expect.stringContaining("Check ESIGN_CLIENT_SECRET"), code: "CLIENT_REJECTED" });
    tokenEndpointAnswers(200, '{"access_token":"at","token_type":"Bearer","expires_in":60}', json);
    await m.client.refreshTokens("rt");
    tokenEndpointAnswers(401, '{"error":"invalid_client"}', json);
    await expect(m.client.refreshTokens("rt")).rejects.toMatchObject({ reason: "misconfigured" });
    expect(error).toHaveBeenCalledTimes(2);
  });
});

let counter = 0;
async function expiredSession(): Promise<string> {
  counter += 1;
  const handle = await m.sessions.createSession({
    subject: "alice",
    accessToken: `old-access-${counter}`,
    refreshToken: `old-refresh-${counter}`,
    accessTokenExpiresAt: Math.floor(Date.now() / 1000) - 1,
    accessTokenLifetime: 3600,
    grantedScope: "openid email service.api offline_access",
    device: { browser: "Test", os: "Test" },
  });
  return m.keys.storeName("session", handle);
}

async function refresh(id: string): Promise<SessionRecord | null> {
  return m.refresh.refreshIfDue((await m.sessions.readSessionById(id))!);
}

describe("a refresh the token endpoint refuses", () => {
  it("keeps the session and its refresh token while the client is refused, and refreshes once that is fixed", async () => {
    const id = await expiredSession();
    standIn.tokenStatus = 401;
    standIn.tokenAnswer = { error: "invalid_client", error_description: "client authentication failed" };
    const during = await refresh(id);
    expect(during).toMatchObject({ refreshToken: `old-refresh-${counter}` });
    expect(during?.error).toBeUndefined();
    expect((await m.sessions.readSessionById(id))!.record).toMatchObject({ refreshToken: `old-refresh-${counter}` });

    standIn.tokenStatus = 200;
    standIn.tokenAnswer = { access_token: "new-access", refresh_token: "new-refresh", expires_in: 3600, token_type: "Bearer" };
    expect(await refresh(id)).toMatchObject({ accessToken: "new-access", refreshToken: "new-refresh" });

    expect(await metric("esign_token_refreshes_total", '{outcome="misconfigured"}')).toBe(1);
    expect(await metric("esign_token_refreshes_total", '{outcome="refreshed"}')).toBe(1);
    expect(await metric("esign_token_refreshes_total", '{outcome="rejected"}')).toBe(0);
    expect(await metric("esign_refresh_reuse_suspects_total")).toBe(0);
  });

  it("ends the session on invalid_grant, counted as rejected and as a suspected reuse", async () => {
    const id = await expiredSession();
    standIn.tokenStatus = 400;
    standIn.tokenAnswer = { error: "invalid_grant", error_description: "grant request is invalid" };
    expect(await refresh(id)).toMatchObject({ error: "RefreshRejected" });
    expect((await m.sessions.readSessionById(id))!.record.refreshToken).toBeUndefined();
    expect(await metric("esign_token_refreshes_total", '{outcome="rejected"}')).toBe(1);
    expect(await metric("esign_token_refreshes_total", '{outcome="misconfigured"}')).toBe(0);
    expect(await metric("esign_refresh_reuse_suspects_total")).toBe(1);
  });
});
