import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { REDIRECT_URI, startTestSandbox } from "./support/sandbox";
import { PARTNER, obtainCode, postToken } from "./support/oauth";

let sandbox: RunningSandbox | undefined;

afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

async function codeFor(running: RunningSandbox) {
  return obtainCode(running, { clientId: PARTNER.client_id, scope: "openid email service.api offline_access" });
}

describe("partner-app with client_secret_basic", () => {
  it("accepts the secret in a Basic header and refuses it in the body", async () => {
    const running = (sandbox = await startTestSandbox({ partnerAuthMethod: "client_secret_basic" }));
    const { code, verifier } = await codeFor(running);
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier };

    const inBody = await postToken(running, { ...form, ...PARTNER });
    expect(inBody.status).toBe(401);
    expect(inBody.body.error).toBe("invalid_client");

    const inHeader = await postToken(running, form, { authorization: basic(PARTNER.client_id, PARTNER.client_secret) });
    expect(inHeader.status).toBe(200);

    const refresh = { grant_type: "refresh_token", refresh_token: String(inHeader.body.refresh_token) };
    expect((await postToken(running, refresh, { authorization: basic(PARTNER.client_id, "wrong") })).status).toBe(401);
    expect((await postToken(running, refresh, { authorization: basic(PARTNER.client_id, PARTNER.client_secret) })).status).toBe(200);
  });
});

describe("partner-app with auth method none", () => {
  it("refreshes with only client_id and refresh_token, as in the spec's sample, and refuses a secret", async () => {
    const running = (sandbox = await startTestSandbox({ partnerAuthMethod: "none" }));
    const { code, verifier } = await codeFor(running);
    const tokens = await postToken(running, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: PARTNER.client_id,
    });
    expect(tokens.status).toBe(200);
    const refreshToken = String(tokens.body.refresh_token);

    const withSecret = await postToken(running, { grant_type: "refresh_token", refresh_token: refreshToken, ...PARTNER });
    expect(withSecret.status).toBe(401);
    const refreshed = await postToken(running, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: PARTNER.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(refreshToken);
  });
});

describe("configured lifetimes and clients", () => {
  it("reports the configured access-token TTL and rejects the token with 401 once it expired", async () => {
    const running = (sandbox = await startTestSandbox({ accessTokenTtl: 1 }));
    const { code, verifier } = await codeFor(running);
    const tokens = await postToken(running, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      ...PARTNER,
    });
    expect(tokens.body.expires_in).toBe(1);
    await sleep(2100);
    const response = await fetch(`${running.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });

  it("uses the configured client ids, secret and redirect URI", async () => {
    const redirect = "https://demo.example/api/auth/callback/esign";
    const running = (sandbox = await startTestSandbox({
      partnerClientId: "acme-app",
      partnerClientSecret: "acme-secret",
      redirectUris: [redirect],
    }));
    const url = new URL(`${running.authUrl}/connect/authorize`);
    url.search = new URLSearchParams({
      client_id: "acme-app",
      response_type: "code",
      scope: "openid email service.api",
      redirect_uri: REDIRECT_URI,
    }).toString();
    const wrongRedirect = await fetch(url, { redirect: "manual" });
    expect(wrongRedirect.status).toBe(400);
    url.searchParams.set("redirect_uri", redirect);
    const accepted = await fetch(url, { redirect: "manual" });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toMatch(/^\/interaction\//);
  });
});
