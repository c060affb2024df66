import { describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { REDIRECT_URI, addFault, adminSend, setUpTestSandbox } from "./support/sandbox";
import { PARTNER, obtainCode, partnerTokens, postToken } from "./support/oauth";

let sandbox: RunningSandbox;

setUpTestSandbox((started) => (sandbox = started));

async function partnerCode(scope = "openid profile email service.api offline_access") {
  return obtainCode(sandbox, { clientId: PARTNER.client_id, scope });
}

function exchange(code: string, verifier: string, extra: Record<string, string> = {}) {
  return postToken(sandbox, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    ...PARTNER,
    ...extra,
  });
}

describe("request access token (authorization_code)", () => {
  it("returns exactly the spec's token fields with their types", async () => {
    const { code, verifier } = await partnerCode();
    const { status, body, headers } = await exchange(code, verifier, { scope: "email service.api offline_access" });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "id_token", "refresh_token", "scope", "token_type"]);
    expect(body).toMatchObject({
      access_token: expect.any(String),
      id_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refresh_token: expect.any(String),
      token_type: "Bearer",
      expires_in: 3600,
    });
    expect(Number.isInteger(body.expires_in)).toBe(true);
    expect(String(body.scope).split(" ").sort()).toEqual(
      ["email", "offline_access", "openid", "profile", "service.api", "service.app"].sort(),
    );
  });

  it("carries email and name in the id_token", async () => {
    const tokens = await partnerTokens(sandbox);
    const payload = JSON.parse(Buffer.from(tokens.id_token.split(".")[1] ?? "", "base64url").toString());
    expect(payload).toMatchObject({ email: "alice@example.com", name: "Alice Example", aud: "partner-app", iss: sandbox.authUrl });
  });

  it("issues a refresh token to partner-app without prompt=consent in the request", async () => {
    const { code, verifier } = await obtainCode(sandbox, { clientId: PARTNER.client_id, scope: "email service.api offline_access" });
    const { body } = await exchange(code, verifier);
    expect(body.refresh_token).toEqual(expect.any(String));
  });

  it("issues no refresh token when offline_access is not requested", async () => {
    const tokens = await partnerTokens(sandbox, "openid email service.api");
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope.split(" ")).not.toContain("offline_access");
  });

  it("answers 400 invalid_grant for an unknown code", async () => {
    const { status, body } = await exchange("not-a-code", "x".repeat(43));
    expect(status).toBe(400);
    expect(body).toEqual({ error: "invalid_grant", error_description: expect.any(String) });
  });

  it("answers 400 invalid_grant when a code is used twice", async () => {
    const { code, verifier } = await partnerCode();
    expect((await exchange(code, verifier)).status).toBe(200);
    const second = await exchange(code, verifier);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe("invalid_grant");
  });

  it("answers 400 invalid_grant on a PKCE verifier mismatch", async () => {
    const { code } = await partnerCode();
    const { status, body } = await exchange(code, "wrong-verifier-".repeat(4));
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_grant");
  });

  it("answers 400 invalid_grant on a redirect_uri mismatch", async () => {
    const { code, verifier } = await partnerCode();
    const { status, body } = await exchange(code, verifier, { redirect_uri: "http://localhost:3000/other" });
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_grant");
  });

  it("answers 401 invalid_client for a wrong secret", async () => {
    const { code, verifier } = await partnerCode();
    const { status, body } = await exchange(code, verifier, { client_secret: "wrong" });
    expect(status).toBe(401);
    expect(body).toEqual({ error: "invalid_client", error_description: expect.any(String) });
  });

  it("answers 401 invalid_client for an unknown client", async () => {
    const { status, body } = await exchange("x", "x".repeat(43), { client_id: "nobody", client_secret: "x" });
    expect(status).toBe(401);
    expect(body.error).toBe("invalid_client");
  });

  it("answers 401 invalid_client when partner-app omits its secret", async () => {
    const { code, verifier } = await partnerCode();
    const { status } = await postToken(sandbox, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: PARTNER.client_id,
    });
    expect(status).toBe(401);
  });

  it("answers 401 when partner-app (client_secret_post) sends its secret with HTTP Basic", async () => {
    const { code, verifier } = await partnerCode();
    const basic = Buffer.from(`${PARTNER.client_id}:${PARTNER.client_secret}`).toString("base64");
    const { status, body } = await postToken(
      sandbox,
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
      { authorization: `Basic ${basic}` },
    );
    expect(status).toBe(401);
    expect(body.error).toBe("invalid_client");
  });

  it("counts grants and token errors in stats", async () => {
    const { code, verifier } = await partnerCode();
    await exchange(code, verifier);
    await exchange(code, verifier);
    await exchange("x", "y".repeat(43), { client_secret: "wrong" });
    const stats = await (await fetch(`${sandbox.apiUrl}/_sandbox/stats`)).json();
    expect(stats.grants).toEqual({ authorization_code: 1, refresh_token: 0 });
    expect(stats.operations.token).toEqual({ 200: 1, 400: 1, 401: 1 });
    expect(stats.tokenErrors).toEqual({ 400: 1, 401: 1 });
    expect(stats.operations.authorize["303"]).toBeGreaterThanOrEqual(1);
  });
});

describe("refresh access token", () => {
  function refresh(refreshToken: string, extra: Record<string, string> = {}) {
    return postToken(sandbox, { grant_type: "refresh_token", refresh_token: refreshToken, ...PARTNER, ...extra });
  }

  it("returns a new access token and a new refresh token with the spec's fields", async () => {
    const tokens = await partnerTokens(sandbox);
    const { status, body } = await refresh(tokens.refresh_token ?? "");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "id_token", "refresh_token", "scope", "token_type"]);
    expect(body.access_token).not.toBe(tokens.access_token);
    expect(body.refresh_token).toEqual(expect.any(String));
    expect(body.refresh_token).not.toBe(tokens.refresh_token);
    expect(body.token_type).toBe("Bearer");
  });

  it("refuses a refresh without the secret while partner-app uses client_secret_post", async () => {
    // The spec's refresh sample sends only client_id and refresh_token; that works once partner-app is configured
    // with `none` (auth-methods.test.ts), never against the confidential default.
    const tokens = await partnerTokens(sandbox);
    const { status, body } = await postToken(sandbox, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token ?? "",
      client_id: PARTNER.client_id,
    });
    expect(status).toBe(401);
    expect(body.error).toBe("invalid_client");
  });

  it("rejects the previous refresh token after rotation with 400 invalid_grant", async () => {
    const tokens = await partnerTokens(sandbox);
    expect((await refresh(tokens.refresh_token ?? "")).status).toBe(200);
    const reused = await refresh(tokens.refresh_token ?? "");
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
  });

  it("revokes the whole grant when a used refresh token comes back, including the newer tokens", async () => {
    const tokens = await partnerTokens(sandbox);
    const rotated = await refresh(tokens.refresh_token ?? "");
    const newer = rotated.body as { refresh_token: string; access_token: string };
    expect((await refresh(tokens.refresh_token ?? "")).status).toBe(400);

    const afterReuse = await refresh(newer.refresh_token);
    expect(afterReuse.status).toBe(400);
    expect(afterReuse.body.error).toBe("invalid_grant");
    const api = await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${newer.access_token}` } });
    expect(api.status).toBe(401);

    const stats = await (await fetch(`${sandbox.apiUrl}/_sandbox/stats`)).json();
    expect(stats.refreshReuse).toBe(1);
    expect(stats.grants.refresh_token).toBe(1);
    // The successful grants in order, each timed: the sign-in, then the one refresh (refused ones are not grants).
    expect(stats.issued.map((i: { grantType: string }) => i.grantType)).toEqual(["authorization_code", "refresh_token"]);
    expect(stats.issued[1].at).toBeGreaterThanOrEqual(stats.issued[0].at);
  });

  it("answers 400 invalid_grant for an unknown refresh token", async () => {
    const { status, body } = await refresh("not-a-refresh-token");
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_grant");
  });

  it("answers 401 invalid_client for a wrong secret", async () => {
    const tokens = await partnerTokens(sandbox);
    const { status, body } = await refresh(tokens.refresh_token ?? "", { client_secret: "wrong" });
    expect(status).toBe(401);
    expect(body.error).toBe("invalid_client");
  });
});

describe("dev-client (shared development client)", () => {
  it("never gets a refresh token, even when asking for offline_access", async () => {
    const { code, verifier } = await obtainCode(sandbox, { clientId: "dev-client", scope: "email service.api offline_access" });
    const { status, body } = await postToken(sandbox, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: "dev-client",
    });
    expect(status).toBe(200);
    expect(body.refresh_token).toBeUndefined();
    expect(String(body.scope).split(" ").sort()).toEqual(["email", "openid", "service.api"]);
  });

  it("requires PKCE at the authorization endpoint", async () => {
    const url = new URL(`${sandbox.authUrl}/connect/authorize`);
    url.search = new URLSearchParams({
      client_id: "dev-client",
      response_type: "code",
      scope: "email service.api",
      redirect_uri: REDIRECT_URI,
      state: "s",
    }).toString();
    const response = await fetch(url, { redirect: "manual" });
    const callback = new URL(response.headers.get("location") ?? "", url);
    expect(callback.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(callback.searchParams.get("error")).toBe("invalid_request");
    expect(callback.searchParams.get("error_description")).toMatch(/PKCE/);
  });

  it("answers 401 invalid_client when a secret is sent", async () => {
    const { code, verifier } = await obtainCode(sandbox, { clientId: "dev-client", scope: "email service.api" });
    const { status } = await postToken(sandbox, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: "dev-client",
      client_secret: "anything",
    });
    expect(status).toBe(401);
  });
});

describe("token fault switches", () => {
  const refresh = (refreshToken: string) => postToken(sandbox, { grant_type: "refresh_token", refresh_token: refreshToken, ...PARTNER });

  it("answers refreshes 401 invalid_client on demand, code exchanges untouched, until DELETE /_sandbox/faults fixes it", async () => {
    const tokens = await partnerTokens(sandbox);
    expect((await addFault(sandbox, { target: "token", grantType: "refresh_token", status: 401, count: 1000 })).status).toBe(201);
    const refused = await refresh(tokens.refresh_token ?? "");
    expect(refused).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await refresh(tokens.refresh_token ?? "")).toMatchObject({ status: 401 });
    // A sign-in still works: the fault is for refreshes only.
    await partnerTokens(sandbox);

    const cleared = await adminSend(sandbox, "DELETE", "faults");
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toEqual({ faults: [] });
    // The refused calls never reached the library: the refresh token is still good.
    expect(await refresh(tokens.refresh_token ?? "")).toMatchObject({ status: 200, body: { token_type: "Bearer" } });
  });

  it("holds a refresh until the faults are cleared, then answers it as usual", async () => {
    const tokens = await partnerTokens(sandbox);
    await addFault(sandbox, { target: "token", grantType: "refresh_token", hold: true });
    let settled = false;
    const held = refresh(tokens.refresh_token ?? "").finally(() => (settled = true));
    await expect.poll(async () => (await (await adminSend(sandbox, "GET", "faults")).json()).heldTokenCalls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    await adminSend(sandbox, "DELETE", "faults");
    expect(await held).toMatchObject({ status: 200, body: { refresh_token: expect.any(String) } });
    expect((await (await adminSend(sandbox, "GET", "faults")).json()).heldTokenCalls).toBe(0);
  });

  it("refuses a token fault with more than one of status, delayMs and hold", async () => {
    expect((await addFault(sandbox, { target: "token", status: 401, hold: true })).status).toBe(400);
  });
});
