import { NextRequest } from "next/server";
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
vi.mock("@/auth", () => ({
  signIn: async () => "http://auth.example/connect/authorize?state=abc",
  handlers: { GET: async () => new Response("Auth.js"), POST: async () => new Response("Auth.js") },
}));
vi.mock("@/lib/auth/auth-server-status", () => ({ isAuthServerReachable: async () => true }));

let startSignIn: typeof import("@/lib/auth/start-sign-in").startSignIn;
let authRoute: typeof import("@/app/api/auth/[...nextauth]/route");

beforeAll(async () => {
  Object.assign(process.env, { AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789", RATE_LIMIT_SIGN_IN: "2/600" });
  ({ startSignIn } = await import("@/lib/auth/start-sign-in"));
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
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

  it("counts every address of one IPv6 /64 as one client, and each IPv4 address as its own", async () => {
    const toService = "redirect to http://auth.example/connect/authorize?state=abc";
    const spent = "redirect to /auth/error?error=TooManySignIns";
    clientAddress = "2001:db8:47:5::1";
    await expect(startSignIn("/account")).rejects.toThrow(toService);
    clientAddress = "2001:db8:47:5:9a3f:11:22:33";
    await expect(startSignIn("/account")).rejects.toThrow(toService);
    // A third address of the same /64: the budget (2) is spent.
    clientAddress = "2001:0db8:0047:0005::ffff";
    await expect(startSignIn("/account")).rejects.toThrow(spent);
    // The next /64 is another client.
    clientAddress = "2001:db8:47:6::1";
    await expect(startSignIn("/account")).rejects.toThrow(toService);
    // Neighbouring IPv4 addresses are not grouped.
    for (const address of ["192.0.2.10", "192.0.2.11", "192.0.2.12"]) {
      clientAddress = address;
      await expect(startSignIn("/account")).rejects.toThrow(toService);
    }
  });

  it("spends the same budget when a sign-in is started at Auth.js's own POST route, and only there", async () => {
    const post = (path: string) =>
      authRoute.POST(new NextRequest(`http://localhost:3000${path}`, { method: "POST", headers: { "x-esign-client-address": "192.0.2.77" } }));
    expect((await post("/api/auth/signin/esign")).status).toBe(200);
    expect((await post("/api/auth/signin/esign")).status).toBe(200);
    // Signing out is not a sign-in start: it never spends the budget.
    expect((await post("/api/auth/signout")).status).toBe(200);
    const refused = await post("/api/auth/signin/esign");
    expect(refused.status).toBe(303);
    expect(new URL(refused.headers.get("location")!).pathname + new URL(refused.headers.get("location")!).search).toBe("/auth/error?error=TooManySignIns");
    expect((await post("/api/auth/signout")).status).toBe(200);
  });
});
