import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, parseConfig } from "@/lib/env";

/** The guide's production table (docs/configuration.md, "In production"): the keys its "Required" column marks "yes". */
function requiredKeysInGuide(): string[] {
  const guide = readFileSync(path.resolve(import.meta.dirname, "../../docs/configuration.md"), "utf8");
  const start = guide.indexOf("## In production");
  const end = guide.indexOf("\n## ", start + 1);
  const section = guide.slice(start, end === -1 ? undefined : end);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|").map((cell) => cell.trim()))
    .filter((cells) => cells[2] === "yes")
    .flatMap((cells) => [...cells[1]!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!));
}

/** A production configuration the guide calls complete. */
const complete: Record<string, string> = {
  NODE_ENV: "production",
  AUTH_URL: "https://partner.example.com",
  AUTH_SECRET: "p".repeat(32),
  ESIGN_AUTH_URL: "https://auth.example.com",
  ESIGN_API_URL: "https://api.example.com",
  ESIGN_CLIENT_ID: "partner",
  ESIGN_CLIENT_SECRET: "real-secret",
  ESIGN_STORAGE_ORIGINS: "https://acct.blob.core.windows.net",
  // Required with the embedded database (tests/unit/backup-config.test.ts); the guide's column says so in words.
  BACKUP_TARGET: "/var/backups/esign",
};

/** The exact line the server prints when the key is missing in production. */
const lineWhenMissing: Record<string, string> = {
  AUTH_URL: "AUTH_URL is required in production: the app's public https origin, e.g. https://partner.example.com",
  AUTH_SECRET: "AUTH_SECRET is required (generate one with `npx auth secret`; `npm run demo` writes one to .env.local)",
  ESIGN_AUTH_URL: "ESIGN_AUTH_URL is required in production (or set ESIGN_USE_SANDBOX=true to run the demo against the sandbox)",
  ESIGN_API_URL: "ESIGN_API_URL is required in production (or set ESIGN_USE_SANDBOX=true to run the demo against the sandbox)",
  ESIGN_CLIENT_ID: "ESIGN_CLIENT_ID is required in production (or set ESIGN_USE_SANDBOX=true to run the demo against the sandbox)",
  ESIGN_CLIENT_SECRET:
    "ESIGN_CLIENT_SECRET is required in production (or set ESIGN_PUBLIC_CLIENT=true for a public client: no refresh tokens, so every session ends when its access token expires)",
  ESIGN_STORAGE_ORIGINS:
    "ESIGN_STORAGE_ORIGINS is required in production: the https blob origins uploads go to, e.g. https://account.blob.core.windows.net",
};

function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    parseConfig(source);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

function without(key: string): Record<string, string> {
  return Object.fromEntries(Object.entries(complete).filter(([k]) => k !== key));
}

describe("production start-up enforces the guide's required column", () => {
  const required = requiredKeysInGuide();

  it("reads the required keys from the guide", () => {
    expect(required.sort()).toEqual(Object.keys(lineWhenMissing).sort());
  });

  it("accepts the complete configuration", () => {
    expect(problemsOf(complete)).toEqual([]);
  });

  for (const key of Object.keys(lineWhenMissing)) {
    it(`refuses to start without ${key}, with its own line`, () => {
      const problems = problemsOf(without(key));
      expect(problems).toContain(lineWhenMissing[key]);
      // Only the pair rule may add a line: the two service URLs are set together or not at all.
      expect(problems.filter((p) => p !== lineWhenMissing[key] && !p.includes("must be set together"))).toEqual([]);
    });
  }

  it("refuses plain-http AUTH_URL and storage origins, each on its own line", () => {
    expect(problemsOf({ ...complete, AUTH_URL: "http://partner.example.com", ESIGN_STORAGE_ORIGINS: "http://acct.example" })).toEqual([
      "AUTH_URL must be https in production (got http://partner.example.com): over plain http the session cookie is neither Secure nor __Secure-; only localhost may use http",
      "ESIGN_STORAGE_ORIGINS must use https in production (found http://acct.example)",
    ]);
  });

  it("runs as a public client only when the partner opts in, and never with a secret as well", () => {
    const publicClient = { ...without("ESIGN_CLIENT_SECRET"), ESIGN_PUBLIC_CLIENT: "true" };
    expect(problemsOf(publicClient)).toEqual([]);
    expect(parseConfig(publicClient)).toMatchObject({ clientSecret: undefined, tokenAuthMethod: "none", scopes: "openid email service.api" });
    expect(problemsOf({ ...complete, ESIGN_PUBLIC_CLIENT: "true" })).toEqual([
      "ESIGN_PUBLIC_CLIENT=true and ESIGN_CLIENT_SECRET contradict each other: a public client has no secret",
    ]);
  });

  it("keeps AUTH_URL required against the sandbox too, and the service keys optional there", () => {
    expect(problemsOf({ NODE_ENV: "production", AUTH_SECRET: complete.AUTH_SECRET, ESIGN_USE_SANDBOX: "true" })).toEqual([lineWhenMissing.AUTH_URL]);
  });
});

describe("checkConfigAtStartup", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("logs each problem on its own line and exits 1", async () => {
    for (const [key, value] of Object.entries(without("ESIGN_STORAGE_ORIGINS"))) vi.stubEnv(key, key === "AUTH_URL" ? undefined : value);
    const fatal = vi.fn();
    vi.doMock("@/lib/logging/logger", () => ({ getLogger: () => ({ info: vi.fn(), warn: vi.fn(), fatal }) }));
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const { checkConfigAtStartup } = await import("@/lib/startup-check");
    checkConfigAtStartup();
    expect(exit).toHaveBeenCalledWith(1);
    expect(fatal.mock.calls.map((call) => call[0])).toEqual([
      "Invalid configuration, not starting:",
      lineWhenMissing.AUTH_URL,
      lineWhenMissing.ESIGN_STORAGE_ORIGINS,
    ]);
  });

  it("says at start-up what a public client costs", async () => {
    for (const [key, value] of Object.entries(without("ESIGN_CLIENT_SECRET"))) vi.stubEnv(key, value);
    vi.stubEnv("ESIGN_PUBLIC_CLIENT", "true");
    const warn = vi.fn();
    vi.doMock("@/lib/logging/logger", () => ({ getLogger: () => ({ info: vi.fn(), warn, fatal: vi.fn() }) }));
    const { checkConfigAtStartup } = await import("@/lib/startup-check");
    checkConfigAtStartup();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("no refresh tokens"));
  });
});
