import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, parseDatabaseConfig } from "@/lib/env";

const secret = "s".repeat(32);

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("parseConfig", () => {
  it("points at the sandbox with its confidential demo client when nothing is configured", () => {
    const config = parseConfig({ AUTH_SECRET: secret });
    expect(config).toMatchObject({
      authUrl: "http://localhost:4000",
      apiUrl: "http://127.0.0.1:4001",
      clientId: "partner-app",
      clientSecret: "partner-app-secret",
      tokenAuthMethod: "client_secret_post",
      scopes: "openid profile email service.api offline_access",
      storageOrigins: ["http://127.0.0.1:4002"],
      usesSandbox: true,
    });
  });

  it("treats a client without a secret as public and does not ask for offline_access", () => {
    const config = parseConfig({ AUTH_SECRET: secret, ESIGN_CLIENT_ID: "dev-client" });
    expect(config.clientSecret).toBeUndefined();
    expect(config.tokenAuthMethod).toBe("none");
    expect(config.scopes).toBe("openid email service.api");
  });

  it("reports every missing or bad key with its own message", () => {
    const problems = problemsOf({
      ESIGN_AUTH_URL: "not a url",
      ESIGN_REQUEST_TIMEOUT_MS: "soon",
      ESIGN_STORAGE_ORIGINS: "https://ok.blob.core.windows.net,https://bad.example/path",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        "ESIGN_AUTH_URL must be an http(s) URL",
        "ESIGN_REQUEST_TIMEOUT_MS must be a number of milliseconds",
        expect.stringContaining("ESIGN_STORAGE_ORIGINS must be a comma-separated list of origins"),
        expect.stringContaining("AUTH_SECRET is required"),
      ]),
    );
  });

  it("stages uploads above 64 MiB in 8 MiB blocks, 4 at a time, unless configured otherwise", () => {
    expect(parseConfig({ AUTH_SECRET: secret }).uploadBlocks).toEqual({ thresholdBytes: 64 * 1024 * 1024, blockSize: 8 * 1024 * 1024, concurrency: 4 });
    expect(
      parseConfig({ AUTH_SECRET: secret, ESIGN_UPLOAD_BLOCK_THRESHOLD_MIB: "128", ESIGN_UPLOAD_BLOCK_SIZE_MIB: "16", ESIGN_UPLOAD_BLOCK_CONCURRENCY: "2" })
        .uploadBlocks,
    ).toEqual({ thresholdBytes: 128 * 1024 * 1024, blockSize: 16 * 1024 * 1024, concurrency: 2 });
  });

  it("explains a bad block setting by its key", () => {
    const problems = problemsOf({
      AUTH_SECRET: secret,
      ESIGN_UPLOAD_BLOCK_THRESHOLD_MIB: "lots",
      ESIGN_UPLOAD_BLOCK_SIZE_MIB: "101",
      ESIGN_UPLOAD_BLOCK_CONCURRENCY: "8",
    });
    expect(problems).toEqual([
      "ESIGN_UPLOAD_BLOCK_THRESHOLD_MIB must be a whole number of MiB from 0 to 5000",
      "ESIGN_UPLOAD_BLOCK_SIZE_MIB must be a whole number of MiB from 1 to 100",
      expect.stringContaining("ESIGN_UPLOAD_BLOCK_CONCURRENCY must be a whole number from 1 to 6"),
    ]);
  });

  it("refuses to run in production against the sandbox unless asked to", () => {
    const problems = problemsOf({ NODE_ENV: "production", AUTH_SECRET: secret, AUTH_URL: "https://partner.example.com" });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining("ESIGN_AUTH_URL is required in production"),
        expect.stringContaining("ESIGN_API_URL is required in production"),
        expect.stringContaining("ESIGN_CLIENT_ID is required in production"),
      ]),
    );
    expect(parseConfig({ NODE_ENV: "production", AUTH_SECRET: secret, AUTH_URL: "https://partner.example.com", ESIGN_USE_SANDBOX: "true" }).usesSandbox).toBe(true);
  });

  it("refuses the sandbox's demo secret in production", () => {
    const problems = problemsOf({
      NODE_ENV: "production",
      AUTH_SECRET: secret,
      AUTH_URL: "https://partner.example.com",
      ESIGN_AUTH_URL: "https://auth.example.com",
      ESIGN_API_URL: "https://api.example.com",
      ESIGN_CLIENT_ID: "partner-app",
      ESIGN_CLIENT_SECRET: "partner-app-secret",
      ESIGN_STORAGE_ORIGINS: "https://acct.blob.core.windows.net",
      BACKUP_TARGET: "none",
    });
    expect(problems).toEqual([expect.stringContaining("ESIGN_CLIENT_SECRET is the sandbox's public demo secret")]);
  });

  it("refuses plain-http storage origins in production, except against the sandbox", () => {
    const production = {
      NODE_ENV: "production",
      AUTH_SECRET: secret,
      AUTH_URL: "https://partner.example.com",
      ESIGN_AUTH_URL: "https://auth.example.com",
      ESIGN_API_URL: "https://api.example.com",
      ESIGN_CLIENT_ID: "partner",
      ESIGN_CLIENT_SECRET: "real-secret",
      ESIGN_STORAGE_ORIGINS: "https://acct.blob.core.windows.net,http://insecure.example",
      BACKUP_TARGET: "none",
    };
    expect(problemsOf(production)).toEqual([expect.stringContaining("ESIGN_STORAGE_ORIGINS must use https in production")]);
    expect(problemsOf({ ...production, ESIGN_USE_SANDBOX: "true" })).toEqual([]);
  });

  it("rejects a short AUTH_SECRET", () => {
    expect(problemsOf({ AUTH_SECRET: "short" })).toEqual([expect.stringContaining("AUTH_SECRET must be at least 32 characters")]);
  });

  it("strips trailing slashes from service URLs, and keeps the issuer exactly as written", () => {
    const config = parseConfig({
      AUTH_SECRET: secret,
      ESIGN_AUTH_URL: "https://auth.example.com/",
      ESIGN_API_URL: "https://api.example.com//",
      ESIGN_CLIENT_ID: "partner",
      ESIGN_CLIENT_SECRET: "real-secret",
      ESIGN_TOKEN_AUTH_METHOD: "client_secret_basic",
    });
    expect(config.authUrl).toBe("https://auth.example.com");
    expect(config.issuer).toBe("https://auth.example.com/");
    expect(config.apiUrl).toBe("https://api.example.com");
    expect(config.tokenAuthMethod).toBe("client_secret_basic");
    expect(config.storageOrigins).toEqual([]);
    expect(config.usesSandbox).toBe(false);
  });

  it("suggests common document types unless ESIGN_DOCTYPE_SUGGESTIONS lists others", () => {
    expect(parseConfig({ AUTH_SECRET: secret }).doctypeSuggestions).toContain("contract");
    expect(parseConfig({ AUTH_SECRET: secret, ESIGN_DOCTYPE_SUGGESTIONS: " lease, ,mandate " }).doctypeSuggestions).toEqual(["lease", "mandate"]);
    expect(problemsOf({ AUTH_SECRET: secret, ESIGN_DOCTYPE_SUGGESTIONS: `ok,${"x".repeat(101)}` })).toEqual([
      "ESIGN_DOCTYPE_SUGGESTIONS must be a comma-separated list of document types, each at most 100 characters",
    ]);
  });
});

describe("REDIS_URL", () => {
  it("is optional: unset or blank keeps the in-process refresh store", () => {
    expect(parseConfig({ AUTH_SECRET: secret }).redisUrl).toBeUndefined();
    expect(parseConfig({ AUTH_SECRET: secret, REDIS_URL: "" }).redisUrl).toBeUndefined();
  });

  it("accepts redis:// and rediss:// URLs", () => {
    expect(parseConfig({ AUTH_SECRET: secret, REDIS_URL: "redis://127.0.0.1:6379" }).redisUrl).toBe("redis://127.0.0.1:6379");
    expect(parseConfig({ AUTH_SECRET: secret, REDIS_URL: "rediss://cache.example.com:6380" }).redisUrl).toBe("rediss://cache.example.com:6380");
  });

  it("names the key when it is not a Redis URL", () => {
    for (const bad of ["http://127.0.0.1:6379", "127.0.0.1:6379", "redis"]) {
      expect(problemsOf({ AUTH_SECRET: secret, REDIS_URL: bad })).toEqual([expect.stringContaining("REDIS_URL must be a redis:// or rediss:// URL")]);
    }
  });
});

describe("the document records' database", () => {
  it("is the embedded one in .data/db, keeping records, with nothing set", () => {
    expect(parseConfig({ AUTH_SECRET: secret }).database).toEqual({ url: undefined, dir: ".data/db", retentionDays: undefined });
    expect(parseConfig({ AUTH_SECRET: secret, DATABASE_URL: "", DOCUMENT_RETENTION_DAYS: "" }).database).toEqual({ url: undefined, dir: ".data/db", retentionDays: undefined });
  });

  it("takes a postgres:// or postgresql:// URL, a folder and a retention in days", () => {
    const { database } = parseConfig({ AUTH_SECRET: secret, DATABASE_URL: "postgresql://app:pw@db.internal:5432/esign", DATABASE_DIR: "/var/lib/esign/db", DOCUMENT_RETENTION_DAYS: "365" });
    expect(database).toEqual({ url: "postgresql://app:pw@db.internal:5432/esign", dir: "/var/lib/esign/db", retentionDays: 365 });
    expect(parseConfig({ AUTH_SECRET: secret, DATABASE_URL: "postgres://db/esign" }).database.url).toBe("postgres://db/esign");
  });

  it("names the key when a value is wrong", () => {
    for (const bad of ["mysql://db/esign", "db.internal:5432", "sqlite:./x.db"]) {
      expect(problemsOf({ AUTH_SECRET: secret, DATABASE_URL: bad })).toEqual([expect.stringContaining("DATABASE_URL must be a postgres:// or postgresql:// URL")]);
    }
    for (const bad of ["0", "-5", "1.5", "forever", "36501"]) {
      expect(problemsOf({ AUTH_SECRET: secret, DOCUMENT_RETENTION_DAYS: bad })).toEqual([expect.stringContaining("DOCUMENT_RETENTION_DAYS must be a whole number of days")]);
    }
    expect(problemsOf({ AUTH_SECRET: secret, DATABASE_DIR: " " })).toEqual(["DATABASE_DIR must not be empty"]);
  });

  it("parses the database keys alone for npm run db:migrate", () => {
    expect(parseDatabaseConfig({ DATABASE_URL: "postgresql://db/esign" })).toEqual({ url: "postgresql://db/esign", dir: ".data/db", retentionDays: undefined });
    expect(() => parseDatabaseConfig({ DATABASE_URL: "mysql://db" })).toThrow(/DATABASE_URL must be/);
  });
});
