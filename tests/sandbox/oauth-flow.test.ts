import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { REDIRECT_URI, startTestSandbox } from "./support/sandbox";
import { authorizeInBrowser } from "./support/oauth";

// Driven by oauth4webapi, an independent OAuth client, so the sandbox is checked against someone else's reading
// of the RFCs rather than its own.
let sandbox: RunningSandbox;
let as: oauth.AuthorizationServer;
const client: oauth.Client = { client_id: "partner-app" };
const clientAuth = oauth.ClientSecretPost("partner-app-secret");
const insecure = { [oauth.allowInsecureRequests]: true };

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const issuer = new URL(sandbox.authUrl);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
});
afterAll(async () => {
  await sandbox?.stop();
});

async function signIn(scope: string) {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint ?? "");
  url.search = new URLSearchParams({
    client_id: client.client_id,
    response_type: "code",
    response_mode: "query",
    scope,
    redirect_uri: REDIRECT_URI,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  }).toString();
  const callback = await authorizeInBrowser(sandbox, url, { clientId: client.client_id, scope });
  return { callback, codeVerifier, state, nonce };
}

describe("authorization code + PKCE + refresh rotation with oauth4webapi", () => {
  it("publishes discovery metadata with the /connect endpoints, S256 and the spec's grants", () => {
    expect(as).toMatchObject({
      issuer: sandbox.authUrl,
      authorization_endpoint: `${sandbox.authUrl}/connect/authorize`,
      token_endpoint: `${sandbox.authUrl}/connect/token`,
      jwks_uri: `${sandbox.authUrl}/connect/jwks`,
      code_challenge_methods_supported: ["S256"],
    });
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
  });

  it("signs in, exchanges the code, verifies the id_token and rotates refresh tokens", async () => {
    const { callback, codeVerifier, state, nonce } = await signIn("openid profile email service.api offline_access");
    const params = oauth.validateAuthResponse(as, client, callback, state);

    const tokenResponse = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT_URI, codeVerifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse, { expectedNonce: nonce, requireIdToken: true });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({ email: "alice@example.com", name: "Alice Example" });

    const userInfo = await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userInfo.status).toBe(200);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token ?? "", insecure),
    );
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const withNewToken = await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${refreshed.access_token}` } });
    expect(withNewToken.status).toBe(200);

    const reuse = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token ?? "", insecure),
    );
    await expect(reuse).rejects.toMatchObject({ error: "invalid_grant", status: 400 });

    const afterRevocation = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token ?? "", insecure),
    );
    await expect(afterRevocation).rejects.toMatchObject({ error: "invalid_grant", status: 400 });
  });

  it("returns access_denied to the redirect URI when the user presses Deny", async () => {
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint ?? "");
    url.search = new URLSearchParams({
      client_id: client.client_id,
      response_type: "code",
      scope: "openid email service.api",
      redirect_uri: REDIRECT_URI,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: "S256",
    }).toString();
    const callback = await authorizeInBrowser(sandbox, url, { clientId: client.client_id, scope: "", consent: "deny" });
    expect(() => oauth.validateAuthResponse(as, client, callback, state)).toThrow(
      expect.objectContaining({ error: "access_denied" }),
    );
  });
});
