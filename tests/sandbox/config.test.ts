import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv, resolveConfig } from "../../sandbox/config";

describe("sandbox configuration", () => {
  it("uses the documented defaults", () => {
    expect(resolveConfig()).toEqual({
      authPort: 4000,
      apiPort: 4001,
      blobPort: 4002,
      authUrl: "http://localhost:4000",
      apiUrl: "http://localhost:4001",
      blobUrl: "http://127.0.0.1:4002",
      accessTokenTtl: 3600,
      refreshTokenTtl: 1_209_600,
      sasTtl: 900,
      redirectUris: ["http://localhost:3000/api/auth/callback/esign"],
      corsOrigins: ["http://localhost:3000"],
      partnerClientId: "partner-app",
      partnerClientSecret: "partner-app-secret",
      partnerAuthMethod: "client_secret_post",
      devClientId: "dev-client",
      clientName: "eSign Partner",
      responseStyle: "standard",
      identityStyle: "standard",
      accessTokenBytes: null,
      backchannelLogoutUri: "http://localhost:3000/api/auth/backchannel-logout",
      revocationEndpoint: true,
      logRequests: false,
    });
  });

  it("names both clients after the app's brand: SANDBOX_CLIENT_NAME, else BRAND_NAME, else the app's default", () => {
    expect(resolveConfig(parseEnv({ BRAND_NAME: " Acme Legal " })).clientName).toBe("Acme Legal");
    expect(resolveConfig(parseEnv({ BRAND_NAME: "Acme Legal", SANDBOX_CLIENT_NAME: "Acme (sandbox)" })).clientName).toBe("Acme (sandbox)");
    expect(resolveConfig(parseEnv({ BRAND_NAME: "  " })).clientName).toBe("eSign Partner");
  });

  it("derives public URLs from the ports unless they are given", () => {
    const config = resolveConfig(parseEnv({ SANDBOX_AUTH_PORT: "5000", SANDBOX_API_URL: "https://api.demo.example/" }));
    expect(config.authUrl).toBe("http://localhost:5000");
    expect(config.apiUrl).toBe("https://api.demo.example");
  });

  it("parses lists, lifetimes and the partner auth method", () => {
    expect(
      parseEnv({
        SANDBOX_REDIRECT_URIS: "http://localhost:3000/cb, https://demo.example/cb",
        SANDBOX_CORS_ORIGINS: "https://demo.example",
        SANDBOX_ACCESS_TOKEN_TTL: "60",
        SANDBOX_PARTNER_AUTH_METHOD: "client_secret_basic",
        SANDBOX_RESPONSE_STYLE: "variant",
        SANDBOX_DEV_CLIENT_ID: "",
        SANDBOX_IDENTITY_STYLE: "identityserver",
        SANDBOX_ACCESS_TOKEN_BYTES: "4096",
        SANDBOX_REVOCATION_ENDPOINT: "off",
      }),
    ).toEqual({
      redirectUris: ["http://localhost:3000/cb", "https://demo.example/cb"],
      corsOrigins: ["https://demo.example"],
      accessTokenTtl: 60,
      partnerAuthMethod: "client_secret_basic",
      responseStyle: "variant",
      identityStyle: "identityserver",
      accessTokenBytes: 4096,
      revocationEndpoint: false,
    });
  });

  it("reports every bad value at once, each with its variable name", () => {
    let caught: unknown;
    try {
      parseEnv({ SANDBOX_API_PORT: "70000", SANDBOX_SAS_TTL: "-5", SANDBOX_PARTNER_AUTH_METHOD: "private_key_jwt", SANDBOX_AUTH_URL: "localhost", SANDBOX_ACCESS_TOKEN_BYTES: "100", SANDBOX_REVOCATION_ENDPOINT: "yes" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    for (const key of ["SANDBOX_API_PORT", "SANDBOX_SAS_TTL", "SANDBOX_PARTNER_AUTH_METHOD", "SANDBOX_AUTH_URL", "SANDBOX_ACCESS_TOKEN_BYTES", "SANDBOX_REVOCATION_ENDPOINT"]) {
      expect(message).toContain(key);
    }
  });

  it("refuses identical partner and dev client ids", () => {
    expect(() => resolveConfig({ partnerClientId: "same", devClientId: "same" })).toThrow(ConfigError);
  });
});
