import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/env";

const secret = "a".repeat(32);
const previous = "b".repeat(40);

function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    parseConfig(source);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

const production = { NODE_ENV: "production", AUTH_SECRET: secret, AUTH_URL: "https://partner.example.com", ESIGN_USE_SANDBOX: "true" };

describe("AUTH_URL in production", () => {
  it("refuses a plain-http AUTH_URL on a public host, in one line naming the key", () => {
    const problems = problemsOf({ ...production, AUTH_URL: "http://partner.example.com" });
    expect(problems).toEqual([expect.stringMatching(/^AUTH_URL must be https in production \(got http:\/\/partner\.example\.com\)/)]);
  });

  it("accepts https, and http on localhost or loopback only", () => {
    for (const url of ["https://partner.example.com", "http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      expect(problemsOf({ ...production, AUTH_URL: url }), url).toEqual([]);
    }
  });

  it("leaves development alone", () => {
    expect(problemsOf({ NODE_ENV: "development", AUTH_SECRET: secret, AUTH_URL: "http://partner.example.com" })).toEqual([]);
  });
});

describe("AUTH_SECRET rotation list", () => {
  it("takes comma-separated secrets in order, the first being the one that encrypts", () => {
    expect(parseConfig({ AUTH_SECRET: ` ${secret} , ${previous} ` }).authSecrets).toEqual([secret, previous]);
  });

  it("keeps a single secret working as before", () => {
    expect(parseConfig({ AUTH_SECRET: secret }).authSecrets).toEqual([secret]);
  });

  it("rejects a list in which any secret is short", () => {
    expect(problemsOf({ AUTH_SECRET: `${secret},short` })).toEqual([expect.stringContaining("AUTH_SECRET must be at least 32 characters")]);
  });
});
