import { describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { adminSend, refreshTokenStatus, sandboxStats, setIdentityStyle, setUpTestSandbox } from "./support/sandbox";
import { PARTNER, partnerTokens, postToken } from "./support/oauth";

let sandbox: RunningSandbox;

setUpTestSandbox((started) => (sandbox = started));

const revoke = (form: Record<string, string>) =>
  fetch(`${sandbox.authUrl}/connect/revocation`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });

const refresh = (refreshToken: string) => postToken(sandbox, { grant_type: "refresh_token", refresh_token: refreshToken, ...PARTNER });

const getUserInfo = (token: string) =>
  fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${token}` } });

describe("revocation endpoint (RFC 7009)", () => {
  it("is published in discovery as revocation_endpoint", async () => {
    const discovery = await (await fetch(`${sandbox.authUrl}/.well-known/openid-configuration`)).json();
    expect(discovery.revocation_endpoint).toBe(`${sandbox.authUrl}/connect/revocation`);
  });

  it("revokes a refresh token: refreshing with it fails 400, its access token stops working, stats count it", async () => {
    const tokens = await partnerTokens(sandbox);
    const refreshToken = tokens.refresh_token ?? "";
    expect(await refreshTokenStatus(sandbox, refreshToken)).toEqual({ status: "active", revokedAtEndpoint: false });
    const response = await revoke({ token: refreshToken, token_type_hint: "refresh_token", ...PARTNER });
    expect(response.status).toBe(200);
    expect(await refreshTokenStatus(sandbox, refreshToken)).toEqual({ status: "revoked", revokedAtEndpoint: true });
    expect(await refresh(refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await getUserInfo(tokens.access_token)).status).toBe(401);
    expect((await sandboxStats(sandbox)).revocations).toEqual({ refresh_token: 1, access_token: 0 });
  });

  it("revokes an opaque access token and counts it", async () => {
    const tokens = await partnerTokens(sandbox);
    expect((await revoke({ token: tokens.access_token, ...PARTNER })).status).toBe(200);
    expect((await getUserInfo(tokens.access_token)).status).toBe(401);
    expect((await sandboxStats(sandbox)).revocations).toEqual({ refresh_token: 0, access_token: 1 });
  });

  it("ignores another client's token (200, nothing revoked) and an unknown token", async () => {
    const tokens = await partnerTokens(sandbox);
    expect((await revoke({ token: tokens.refresh_token ?? "", client_id: "dev-client" })).status).toBe(200);
    expect((await revoke({ token: "not-a-token", ...PARTNER })).status).toBe(200);
    expect((await refreshTokenStatus(sandbox, tokens.refresh_token ?? "")).status).toBe("active");
    expect((await sandboxStats(sandbox)).revocations).toEqual({ refresh_token: 0, access_token: 0 });
  });

  it("refuses a JWT access token as oidc-provider does (structured tokens cannot be revoked)", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver" });
    const tokens = await partnerTokens(sandbox);
    const response = await revoke({ token: tokens.access_token, ...PARTNER });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("unsupported_token_type");
    expect((await revoke({ token: tokens.refresh_token ?? "", ...PARTNER })).status).toBe(200);
    expect((await refresh(tokens.refresh_token ?? "")).status).toBe(400);
  });
});

describe("refresh-token status", () => {
  it("follows a refresh token from active to consumed, and reuse to revoked", async () => {
    const tokens = await partnerTokens(sandbox);
    const first = tokens.refresh_token ?? "";
    const { body } = await refresh(first);
    const second = String(body.refresh_token);
    expect(await refreshTokenStatus(sandbox, first)).toEqual({ status: "consumed", revokedAtEndpoint: false });
    expect((await refreshTokenStatus(sandbox, second)).status).toBe("active");
    expect((await refresh(first)).status).toBe(400);
    expect(await refreshTokenStatus(sandbox, second)).toEqual({ status: "revoked", revokedAtEndpoint: false });
    expect((await sandboxStats(sandbox)).refreshReuse).toBe(1);
  });

  it("answers unknown for a value never issued and 400 without a token", async () => {
    expect((await refreshTokenStatus(sandbox, "never-issued")).status).toBe("unknown");
    expect((await adminSend(sandbox, "GET", "refresh-token-status")).status).toBe(400);
  });
});

describe("without a published revocation endpoint (as the spec's service)", () => {
  it("leaves revocation_endpoint out of discovery and /connect/revocation unanswered until switched back or reset", async () => {
    const tokens = await partnerTokens(sandbox);
    const off = await adminSend(sandbox, "PUT", "revocation-endpoint", { published: false });
    expect(await off.json()).toEqual({ published: false });
    const discovery = await (await fetch(`${sandbox.authUrl}/.well-known/openid-configuration`)).json();
    expect(discovery).not.toHaveProperty("revocation_endpoint");
    expect((await revoke({ token: tokens.refresh_token ?? "", ...PARTNER })).status).toBe(404);
    // Grants survive the switch (the provider is rebuilt on the same store).
    expect(await refresh(tokens.refresh_token ?? "")).toMatchObject({ status: 200 });

    await fetch(`${sandbox.apiUrl}/_sandbox/reset`, { method: "POST" });
    expect(await (await adminSend(sandbox, "GET", "revocation-endpoint")).json()).toEqual({ published: true });
    expect((await (await fetch(`${sandbox.authUrl}/.well-known/openid-configuration`)).json()).revocation_endpoint).toBe(
      `${sandbox.authUrl}/connect/revocation`,
    );
  });
});
