import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox, SentLogoutToken } from "../../sandbox/index";
import { adminSend, publishedJwks, refreshTokenStatus, resetSandbox, sandboxStats, startTestSandbox } from "./support/sandbox";
import { PARTNER, partnerTokens, postToken } from "./support/oauth";
import { CookieJar } from "./support/cookie-jar";
import { LogoutReceiver } from "./support/logout-receiver";

const EVENT = "http://schemas.openid.net/event/backchannel-logout";
const ALICE = "6f1c2b0e-4d0a-4a8e-9a51-1c7e3f0a2b11";

let sandbox: RunningSandbox;
const receiver = new LogoutReceiver(4105);

beforeAll(async () => {
  await receiver.start();
  sandbox = await startTestSandbox({ backchannelLogoutUri: receiver.uri });
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver.stop();
});
beforeEach(async () => {
  await resetSandbox(sandbox);
  receiver.received.length = 0;
  receiver.status = 200;
});

async function verifyWithSandboxKeys(jwt: string) {
  const keys = createLocalJWKSet((await publishedJwks(sandbox)) as JSONWebKeySet);
  return jwtVerify(jwt, keys, { issuer: sandbox.authUrl, audience: "partner-app", typ: "logout+jwt" });
}

/** Signs in keeping the session cookies, then presses "Yes, sign me out" on the sandbox's sign-out page. */
async function signInAndSignOutOnPages() {
  const jar = new CookieJar();
  const tokens = await partnerTokens(sandbox, undefined, undefined, jar);
  const endSession = new URL(`${sandbox.authUrl}/connect/endsession`);
  endSession.search = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: "http://localhost:3000/" }).toString();
  const page = await fetch(endSession, { headers: { cookie: jar.header() } });
  jar.store(page);
  const html = await page.text();
  expect(html).toContain("Yes, sign me out");
  const action = /<form id="op.logoutForm" method="post" action="([^"]+)">/.exec(html)?.[1] ?? "";
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const confirm = await fetch(new URL(action, endSession), {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ xsrf, logout: "yes" }).toString(),
  });
  expect(confirm.status).toBe(303);
  expect(confirm.headers.get("location")).toBe("http://localhost:3000/");
  return tokens;
}

const logoutTokensSent = async (): Promise<SentLogoutToken[]> =>
  ((await (await adminSend(sandbox, "GET", "logout-tokens")).json()) as { tokens: SentLogoutToken[] }).tokens;

describe("back-channel logout metadata", () => {
  it("advertises back-channel logout with sessions in discovery, and the id_token carries sid", async () => {
    const discovery = await (await fetch(`${sandbox.authUrl}/.well-known/openid-configuration`)).json();
    expect(discovery).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
    expect(decodeJwt((await partnerTokens(sandbox)).id_token).sid).toEqual(expect.any(String));
  });
});

describe("sign-out at the sandbox's pages", () => {
  it("sends a spec-shaped logout token naming the sub and sid to the registered URI, and records it", async () => {
    const tokens = await signInAndSignOutOnPages();
    expect(receiver.received).toHaveLength(1);
    const jwt = receiver.received[0] ?? "";
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: "RS256", typ: "logout+jwt", kid: decodeProtectedHeader(tokens.id_token).kid });
    const { payload } = await verifyWithSandboxKeys(jwt);
    expect(payload).toMatchObject({
      iss: sandbox.authUrl,
      aud: "partner-app",
      sub: ALICE,
      sid: decodeJwt(tokens.id_token).sid,
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: expect.any(Number),
      events: { [EVENT]: {} },
    });
    expect(payload).not.toHaveProperty("nonce");
    expect(await logoutTokensSent()).toEqual([{ jwt, uri: receiver.uri, status: 200 }]);
    expect((await sandboxStats(sandbox)).backchannelLogouts).toEqual({ sent: 1, failed: 0 });
    // offline_access outlives the session, in oidc-provider as in IdentityServer's default.
    expect((await refreshTokenStatus(sandbox, tokens.refresh_token ?? "")).status).toBe("active");
  });

  it("revokes a sign-in without offline_access", async () => {
    await adminSend(sandbox, "POST", "sign-out", { email: "alice@example.com" });
    const jar = new CookieJar();
    const tokens = await partnerTokens(sandbox, "openid email service.api", undefined, jar);
    expect((await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200);
    expect(await (await adminSend(sandbox, "POST", "sign-out", { email: "alice@example.com" })).json()).toEqual({ endedSessions: 1, logoutTokens: 1 });
    expect((await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
  });

  it("counts a delivery the app refuses as failed and still signs out", async () => {
    receiver.status = 500;
    await signInAndSignOutOnPages();
    expect((await sandboxStats(sandbox)).backchannelLogouts).toEqual({ sent: 0, failed: 1 });
    expect((await logoutTokensSent())[0]?.status).toBe(500);
  });
});

describe("back-channel logout URI switch", () => {
  it("sends to the URI set at runtime, keeps existing sign-ins working, and reset restores the configured one", async () => {
    const elsewhere = new LogoutReceiver(4106);
    await elsewhere.start();
    try {
      const before = await partnerTokens(sandbox);
      const put = await adminSend(sandbox, "PUT", "backchannel-logout-uri", { uri: elsewhere.uri });
      expect(await put.json()).toEqual({ uri: elsewhere.uri });
      expect((await postToken(sandbox, { grant_type: "refresh_token", refresh_token: before.refresh_token ?? "", ...PARTNER })).status).toBe(200);
      await signInAndSignOutOnPages();
      expect(elsewhere.received).toHaveLength(1);
      expect(receiver.received).toHaveLength(0);
      await resetSandbox(sandbox);
      expect(await (await adminSend(sandbox, "GET", "backchannel-logout-uri")).json()).toEqual({ uri: receiver.uri });
    } finally {
      await elsewhere.stop();
    }
  });

  it("rejects a URI that is not absolute http(s)", async () => {
    expect((await adminSend(sandbox, "PUT", "backchannel-logout-uri", { uri: "/relative" })).status).toBe(400);
  });

  it("counts an unreachable URI as failed with a null status", async () => {
    await adminSend(sandbox, "PUT", "backchannel-logout-uri", { uri: "http://localhost:4107/nobody-listens" });
    await signInAndSignOutOnPages();
    expect((await sandboxStats(sandbox)).backchannelLogouts).toEqual({ sent: 0, failed: 1 });
    expect((await logoutTokensSent())[0]).toMatchObject({ uri: "http://localhost:4107/nobody-listens", status: null });
  });
});

describe("admin sign-out", () => {
  it("ends the user's sessions and sends a logout token for each, as the sign-out page does", async () => {
    await adminSend(sandbox, "POST", "sign-out", { email: "alice@example.com" });
    receiver.received.length = 0;
    const tokens = await partnerTokens(sandbox);
    const response = await adminSend(sandbox, "POST", "sign-out", { email: "alice@example.com" });
    expect(await response.json()).toEqual({ endedSessions: 1, logoutTokens: 1 });
    expect(decodeJwt(receiver.received[0] ?? "")).toMatchObject({ sub: ALICE, sid: decodeJwt(tokens.id_token).sid });
    expect((await refreshTokenStatus(sandbox, tokens.refresh_token ?? "")).status).toBe("active");
    expect(await (await adminSend(sandbox, "POST", "sign-out", { sub: ALICE })).json()).toEqual({ endedSessions: 0, logoutTokens: 0 });
    expect((await adminSend(sandbox, "POST", "sign-out", { email: "nobody@example.com" })).status).toBe(404);
  });
});

describe("minted logout tokens", () => {
  const mint = async (body: Record<string, unknown>) =>
    ((await (await adminSend(sandbox, "POST", "logout-token", body)).json()) as { jwt: string }).jwt;

  it("mints a valid token for the partner, signed with the current key, without sending it", async () => {
    const jwt = await mint({ sub: ALICE, sid: "session-1" });
    const { payload, protectedHeader } = await verifyWithSandboxKeys(jwt);
    expect(protectedHeader).toMatchObject({ typ: "logout+jwt", alg: "RS256" });
    expect(payload).toMatchObject({ sub: ALICE, sid: "session-1", events: { [EVENT]: {} }, jti: expect.any(String) });
    expect(payload).not.toHaveProperty("nonce");
    expect(receiver.received).toHaveLength(0);
    expect(await logoutTokensSent()).toEqual([]);
  });

  it("applies overrides, leaves out claims set to null and signs with a stranger key on request", async () => {
    const jwt = await mint({ sid: "s", nonce: "n", jti: null, events: null, aud: "someone-else", exp: 1 });
    expect(decodeJwt(jwt)).toEqual({ iss: sandbox.authUrl, aud: "someone-else", iat: expect.any(Number), exp: 1, sid: "s", nonce: "n" });
    const stranger = await mint({ signWith: "stranger" });
    const kids = (await publishedJwks(sandbox)).keys.map((key) => key.kid);
    expect(kids).not.toContain(decodeProtectedHeader(stranger).kid);
    await expect(verifyWithSandboxKeys(stranger)).rejects.toThrow();
  });

  it("rejects an unknown field", async () => {
    expect((await adminSend(sandbox, "POST", "logout-token", { typ: "JWT" })).status).toBe(400);
  });
});
