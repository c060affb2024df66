import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { adminSend, publishedJwks, resetSandbox, setIdentityStyle, startTestSandbox, setUpTestSandbox } from "./support/sandbox";
import { authorizeInBrowser, buildAuthorizeUrl, PARTNER, partnerTokens, postToken } from "./support/oauth";

let sandbox: RunningSandbox;

setUpTestSandbox((started) => (sandbox = started));

const getUserInfo = (token: string) =>
  fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${token}` } });

const refresh = (refreshToken: string) => postToken(sandbox, { grant_type: "refresh_token", refresh_token: refreshToken, ...PARTNER });

describe("identity style switch", () => {
  it("starts in standard style with opaque 43-character access tokens", async () => {
    expect(await (await adminSend(sandbox, "GET", "identity-style")).json()).toEqual({ style: "standard", accessTokenBytes: null });
    const { access_token } = await partnerTokens(sandbox);
    expect(access_token).toMatch(/^[\w-]{43}$/);
  });

  it("rejects an unknown style or a size out of range, and reset restores the configured style", async () => {
    expect((await adminSend(sandbox, "PUT", "identity-style", { style: "okta" })).status).toBe(400);
    expect((await adminSend(sandbox, "PUT", "identity-style", { style: "identityserver", accessTokenBytes: 100 })).status).toBe(400);
    await setIdentityStyle(sandbox, { style: "identityserver", accessTokenBytes: 2048 });
    expect(await (await adminSend(sandbox, "GET", "identity-style")).json()).toEqual({ style: "identityserver", accessTokenBytes: 2048 });
    await resetSandbox(sandbox);
    expect(await (await adminSend(sandbox, "GET", "identity-style")).json()).toEqual({ style: "standard", accessTokenBytes: null });
  });
});

describe("JWT access tokens in identityserver style", () => {
  it("issues an RS256 at+jwt with IdentityServer's claims, signed by a published key, for the spec's unchanged token request", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver" });
    const tokens = await partnerTokens(sandbox);
    const header = decodeProtectedHeader(tokens.access_token);
    expect(header).toMatchObject({ alg: "RS256", typ: "at+jwt", kid: expect.any(String) });
    expect((await publishedJwks(sandbox)).keys.map((key) => key.kid)).toContain(header.kid);
    const claims = decodeJwt(tokens.access_token);
    expect(Object.keys(claims)).toEqual(["iss", "nbf", "iat", "exp", "aud", "scope", "amr", "client_id", "sub", "auth_time", "idp", "sid", "jti"]);
    expect(claims).toMatchObject({
      iss: sandbox.authUrl,
      aud: `${sandbox.authUrl}/resources`,
      client_id: "partner-app",
      sub: "6f1c2b0e-4d0a-4a8e-9a51-1c7e3f0a2b11",
      amr: ["pwd"],
      idp: "local",
      auth_time: expect.any(Number),
      sid: decodeJwt(tokens.id_token).sid,
    });
    expect(claims.scope).toEqual(expect.arrayContaining(["openid", "email", "service.api", "offline_access"]));
    expect(claims.exp).toBe((claims.iat ?? 0) + tokens.expires_in);
    expect(tokens.scope.split(" ")).toEqual(expect.arrayContaining(["openid", "profile", "email", "service.api", "offline_access"]));
    expect(tokens.token_type).toBe("Bearer");
    expect((await getUserInfo(tokens.access_token)).status).toBe(200);
  });

  // The natural token is just under 1 KiB, so 1024 needs little or no padding.
  it.each([
    [1024, []],
    [4096, ["tenant", "role"]],
    [8192, ["tenant", "role"]],
  ])("makes the token about %i bytes long (padding claims %j), and the API accepts it", async (bytes, padding) => {
    await setIdentityStyle(sandbox, { style: "identityserver", accessTokenBytes: bytes });
    const { access_token, refresh_token } = await partnerTokens(sandbox);
    expect(Math.abs(access_token.length - bytes)).toBeLessThanOrEqual(bytes * 0.02);
    expect(Object.keys(decodeJwt(access_token))).toEqual(expect.arrayContaining(padding));
    expect((await getUserInfo(access_token)).status).toBe(200);
    const refreshed = await refresh(refresh_token ?? "");
    expect(Math.abs(String(refreshed.body.access_token).length - bytes)).toBeLessThanOrEqual(bytes * 0.02);
  });

  it("switches size at runtime without a restart", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver", accessTokenBytes: 1024 });
    const small = await partnerTokens(sandbox);
    await setIdentityStyle(sandbox, { style: "identityserver", accessTokenBytes: 8192 });
    const refreshed = await refresh(small.refresh_token ?? "");
    expect(small.access_token.length).toBeLessThan(1100);
    expect(String(refreshed.body.access_token).length).toBeGreaterThan(8000);
  });

  it("goes back to opaque tokens the API accepts when switched back to standard", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver" });
    const tokens = await partnerTokens(sandbox);
    await setIdentityStyle(sandbox, { style: "standard" });
    const { body } = await refresh(tokens.refresh_token ?? "");
    expect(body.access_token).toMatch(/^[\w-]{43}$/);
    expect(body.scope).toBe(tokens.scope);
    expect((await getUserInfo(String(body.access_token))).status).toBe(200);
    expect((await getUserInfo(tokens.access_token)).status).toBe(200);
  });

  it("refuses a resource indicator other than the API with invalid_target", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver" });
    const callback = await authorizeInBrowser(
      sandbox,
      buildAuthorizeUrl(sandbox, { clientId: "partner-app", scope: "openid email service.api", extraParams: { resource: "https://elsewhere.example/" } }),
      { clientId: "partner-app", scope: "" },
    );
    expect(callback.searchParams.get("error")).toBe("invalid_target");
  });

  it("answers 401 invalid_token for a tampered JWT", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver" });
    const { access_token } = await partnerTokens(sandbox);
    const [header, payload, signature] = access_token.split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: "a3e8d5f2-7b19-4c6d-8e0a-9f2b4c1d6e37" })).toString("base64url");
    const response = await getUserInfo(`${header}.${forged}.${signature}`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
  });

  it("answers 403 insufficient_scope for a JWT without service.api", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver" });
    const { access_token } = await partnerTokens(sandbox, "openid email offline_access");
    expect(decodeProtectedHeader(access_token).typ).toBe("at+jwt");
    const response = await fetch(`${sandbox.apiUrl}/api/document`, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ docid: null, name: "contract.pdf", doctype: "contract" }),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe("insufficient_scope");
  });
});

describe("id_token on refresh", () => {
  it.each(["standard", "identityserver"] as const)("returns a fresh id_token on every refresh in %s style", async (style) => {
    await setIdentityStyle(sandbox, { style });
    const first = await partnerTokens(sandbox);
    const { status, body } = await refresh(first.refresh_token ?? "");
    expect(status).toBe(200);
    // Within the same second it may equal the first one byte for byte (same claims, deterministic RS256).
    const idToken = String(body.id_token);
    expect(decodeJwt(idToken)).toMatchObject({ iss: sandbox.authUrl, aud: "partner-app", sub: decodeJwt(first.id_token).sub });
    expect(decodeJwt(idToken).iat).toBeGreaterThanOrEqual(decodeJwt(first.id_token).iat ?? 0);
    expect(decodeProtectedHeader(idToken).kid).toBe(decodeProtectedHeader(first.id_token).kid);
  });
});

describe("JWT access token expiry", () => {
  let shortLived: RunningSandbox;
  beforeAll(async () => {
    shortLived = await startTestSandbox({ authPort: 4110, apiPort: 4111, blobPort: 4112, accessTokenTtl: 1, identityStyle: "identityserver" });
  });
  afterAll(async () => {
    await shortLived?.stop();
  });

  it("answers 401 invalid_token once the JWT's exp has passed", async () => {
    const { access_token } = await partnerTokens(shortLived);
    const exp = decodeJwt(access_token).exp ?? 0;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 50));
    const response = await fetch(`${shortLived.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe("invalid_token");
  });
});
