import { beforeAll, describe, expect, it, vi } from "vitest";

// The sign-in start's per-address budget, with Next's request APIs and Auth.js stood in for: what is tested is the
// decision between the service's authorization URL and the sign-in problem page.
let clientAddress = "203.0.113.9";
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-esign-client-address": clientAddress }),
  cookies: async () => ({ has: () => false }),
}));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw new Error(`redirect to ${url}`);
  },
}));
vi.mock("next-intl/server", () => ({ getLocale: async () => "en" }));
vi.mock("@/auth", () => ({ signIn: async () => "http://auth.example/connect/authorize?state=abc" }));
vi.mock("@/lib/auth/auth-server-status", () => ({ isAuthServerReachable: async () => true }));

let startSignIn: typeof import("@/lib/auth/start-sign-in").startSignIn;

beforeAll(async () => {
  Object.assign(process.env, { AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789", RATE_LIMIT_SIGN_IN: "2/600" });
  ({ startSignIn } = await import("@/lib/auth/start-sign-in"));
});

describe("the sign-in start", () => {
  it("sends one client address to the service as often as its budget allows, then to the sign-in problem page", async () => {
    const toService = "redirect to http://auth.example/connect/authorize?state=abc";
    await expect(startSignIn("/account")).rejects.toThrow(toService);
    await expect(startSignIn("/account")).rejects.toThrow(toService);
    await expect(startSignIn("/account")).rejects.toThrow("redirect to /auth/error?error=TooManySignIns");
    // Another address has its own budget.
    clientAddress = "198.51.100.4";
    await expect(startSignIn("/account")).rejects.toThrow(toService);
  });
});
