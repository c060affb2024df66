import { randomUUID } from "node:crypto";
import { readdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { APP_ROUTES, appRouteOf, routeLabelOf, UNKNOWN_PATH, type AppRoute } from "@/lib/routes/app-routes";
import { LIMIT_NAMES, limitEnvKey } from "@/lib/rate-limit/policies";
import { signedInCookie } from "../support/signed-in-cookie";

// Every page and route handler under app/ against lib/routes/app-routes.ts, and each budget there spent for real: every
// budget is 1 a minute, so a user's second request of a kind is refused. The sign-in start (/auth/restart) runs outside
// Next's request scope, so its request APIs and Auth.js are stood in for, as in sign-in-budget.test.ts.
let clientAddress = "203.0.113.47";
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-esign-client-address": clientAddress }),
  cookies: async () => ({ has: () => false, set: () => {} }),
}));
vi.mock("next-intl/server", () => ({ getLocale: async () => "en" }));
vi.mock("@/auth", () => ({
  signIn: async () => "http://auth.example/connect/authorize?state=abc",
  handlers: { GET: async () => new Response("Auth.js"), POST: async () => new Response("Auth.js") },
}));
vi.mock("@/lib/auth/auth-server-status", () => ({ isAuthServerReachable: async () => true }));

const ORIGIN = "http://localhost:3000";
const APP_DIR = join(process.cwd(), "app");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

let dir: string;
let api: Server;
let proxyModule: typeof import("@/proxy");
let closeDatabase: () => Promise<void>;

/** The page.tsx and route.ts files under app/, as the paths Next serves them at (`/documents/[itemId]`). */
async function routeFiles(): Promise<{ path: string; kind: "page" | "route"; file: string }[]> {
  const entries = await readdir(APP_DIR, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /^(page\.tsx|route\.ts)$/.test(e.name))
    .map((e) => {
      const folder = relative(APP_DIR, e.parentPath).split(sep).filter((s) => s && !/^\(.*\)$/.test(s));
      return { path: `/${folder.join("/")}`, kind: e.name === "page.tsx" ? ("page" as const) : ("route" as const), file: join(e.parentPath, e.name) };
    });
}

/** A request path for a route's path: each dynamic segment filled with an id. */
const concrete = (path: string) => path.replace(/\[\.\.\.[^\]]+\]/, "signin/esign").replace(/\[[^\]]+\]/g, () => randomUUID());

function request(path: string, options: { method?: string; cookie?: string; headers?: Record<string, string> } = {}): NextRequest {
  const method = options.method ?? "GET";
  return new NextRequest(`${ORIGIN}${path}`, {
    method,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...(method !== "GET" && method !== "HEAD" ? { origin: ORIGIN } : {}), ...options.headers },
  });
}

const newUser = () => signedInCookie(`user-${randomUUID()}`, ORIGIN);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "route-budgets-"));
  // The service's stand-in: the account read answers; nothing else is called before a budget is spent.
  api = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ sub: "x", email: "x@example.com" }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    ESIGN_AUTH_URL: "http://127.0.0.1:1",
    ESIGN_API_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
    ESIGN_USE_SANDBOX: "true",
    SESSION_STORE_DIR: join(dir, "sessions"),
    DATABASE_DIR: join(dir, "db"),
    OPERATOR_EMAILS: "oscar@example.com",
    ...Object.fromEntries(LIMIT_NAMES.map((name) => [limitEnvKey(name), "1/60"])),
  });
  proxyModule = await import("@/proxy");
  const db = await import("@/lib/db/client");
  closeDatabase = db.closeDatabase;
  await db.getDatabase();
});

afterAll(async () => {
  await closeDatabase?.();
  await new Promise((resolve) => api.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe("the list of pages and routes", () => {
  it("holds every page.tsx and route.ts under app/, and nothing else", async () => {
    const files = await routeFiles();
    expect(files.length).toBeGreaterThan(20);
    const listed = APP_ROUTES.map((r) => `${r.kind === "page" ? "page" : "route"} ${r.path}`).sort();
    expect(files.map((f) => `${f.kind} ${f.path}`).sort()).toEqual(listed);
  });

  it("gives each method a route handler exports a budget, or names the route on the short allowlist", async () => {
    const allowlist = APP_ROUTES.filter((r): r is Extract<AppRoute, { exempt: string }> => "exempt" in r).map((r) => r.path);
    // Health, Auth.js's own routes and the service's callback, and static answers: nothing else may spend no budget.
    expect(allowlist.sort()).toEqual(["/api/auth/[...nextauth]", "/api/auth/backchannel-logout", "/api/health", "/api/health/ready", "/favicon.ico", "/language"]);
    for (const file of (await routeFiles()).filter((f) => f.kind === "route")) {
      const route = APP_ROUTES.find((r) => r.path === file.path && r.kind !== "page")!;
      const handlers = (await import(/* @vite-ignore */ file.file)) as Record<string, unknown>;
      const exported = METHODS.filter((m) => typeof handlers[m] === "function");
      expect(exported.length, file.path).toBeGreaterThan(0);
      if (route.kind === "route" && "budgets" in route) expect(exported.filter((m) => !route.budgets[m as keyof typeof route.budgets]), file.path).toEqual([]);
    }
  });

  it("labels every page and route in the metrics by its own name, never `other` (issue: a route forgotten in a list)", async () => {
    const { routeLabel } = await import("@/lib/metrics/http-requests");
    for (const route of APP_ROUTES) {
      const label = routeLabel(concrete(route.path));
      expect(label, route.path).not.toBe("other");
      if (route.path !== "/api/auth/[...nextauth]") expect(label, route.path).toBe(routeLabelOf(route.path));
    }
    expect(routeLabel("/api/operator/export")).toBe("/api/operator/export");
    expect(routeLabel(`/operator/users/${randomUUID()}/documents/${randomUUID()}`)).toBe("/operator/users/:userKey/documents/:itemId");
    expect(appRouteOf("/api/documents/export")?.path).toBe("/api/documents/export");
  });
});

describe("every page", () => {
  const pages = APP_ROUTES.filter((r): r is Extract<AppRoute, { kind: "page" }> => r.kind === "page");

  for (const page of pages) {
    it(`${page.path} spends "${page.budget}" on a GET and on a HEAD alike, and answers 429 once it is spent`, async () => {
      const cookie = await newUser();
      const path = concrete(page.path);
      expect((await proxyModule.proxy(request(path, { cookie }))).status).toBe(200);
      const refused = await proxyModule.proxy(request(path, { method: "HEAD", cookie }));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("ratelimit-policy")).toBe(`"${page.budget}";q=1;w=60`);
      // A Server Action posts to the page's path and renders it: the same budget.
      expect((await proxyModule.proxy(request(path, { method: "POST", cookie }))).status).toBe(429);
    });
  }

  it("counts a request with a router prefetch's headers like any other: nothing is exempt", async () => {
    // Next strips these before the proxy runs; were one ever let through, it still would not buy a free page.
    const cookie = await newUser();
    const prefetch = { rsc: "1", "next-router-prefetch": "1" };
    expect((await proxyModule.proxy(request("/documents", { cookie, headers: prefetch }))).status).toBe(200);
    expect((await proxyModule.proxy(request("/documents", { cookie, headers: prefetch }))).status).toBe(429);
  });

  it("spends \"other-pages\" on a path that reaches no page or route (Next renders its 404 page for it)", async () => {
    const cookie = await newUser();
    expect((await proxyModule.proxy(request("/no-such-page", { cookie }))).status).toBe(200);
    const refused = await proxyModule.proxy(request("/api/no-such-route", { method: "HEAD", cookie }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-policy")).toBe('"other-pages";q=1;w=60');
  });
});

describe("every route handler with a budget", () => {
  const handled = APP_ROUTES.filter((r): r is Extract<AppRoute, { budgets: object }> => r.kind === "route" && "budgets" in r);

  for (const route of handled) {
    for (const [method, budget] of Object.entries(route.budgets)) {
      it(`${method} ${route.path} spends "${budget}" and answers 429 once it is spent`, async () => {
        const file = (await routeFiles()).find((f) => f.kind === "route" && f.path === route.path)!;
        const handler = ((await import(/* @vite-ignore */ file.file)) as Record<string, (req: NextRequest, ctx: unknown) => Promise<Response>>)[method]!;
        const subject = `user-${randomUUID()}`;
        const path = concrete(route.path);
        const context = { params: Promise.resolve(Object.fromEntries([...route.path.matchAll(/\[([^\]]+)\]/g)].map((m) => [m[1], randomUUID()]))) };
        // The sign-in start is per client address, from a same-origin navigation; the rest per user.
        const headers: Record<string, string> = budget === "sign-in" ? { "sec-fetch-site": "same-origin" } : {};
        clientAddress = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
        // Each call from a session of its own (one user): "sign out everywhere" ends the session it was sent from.
        const call = async () => {
          const cookie = await signedInCookie(subject, ORIGIN);
          try {
            const res = await handler(request(path, { method, cookie, headers }), context);
            await res.body?.cancel();
            return res;
          } catch (error) {
            // startSignIn ends in Next's redirect(), thrown outside a request scope.
            return error as Error;
          }
        };
        const first = await call();
        if (budget === "sign-in") {
          expect(String(first)).toContain("NEXT_REDIRECT");
          expect(String((first as Error & { digest?: string }).digest)).toContain("auth.example");
          const second = (await call()) as Error & { digest?: string };
          expect(String(second.digest)).toContain("/auth/error?error=TooManySignIns");
          return;
        }
        expect((first as Response).status, `${method} ${route.path} first`).not.toBe(429);
        const second = (await call()) as Response;
        expect(second.status, `${method} ${route.path} second`).toBe(429);
        expect(second.headers.get("ratelimit-policy")).toBe(`"${budget}";q=1;w=60`);
      });
    }
  }
});

describe("the operator routes", () => {
  const operatorRoutes = APP_ROUTES.filter((r): r is Extract<AppRoute, { kind: "operator-route" }> => r.kind === "operator-route");

  it("exist, and are all under /api/operator", () => {
    expect(operatorRoutes.map((r) => r.path).sort()).toEqual(["/api/operator/access-log/export", "/api/operator/export", "/api/operator/users/[userKey]/erasure"]);
  });

  for (const route of operatorRoutes) {
    it(`${route.path}: anyone but an operator is sent where an unknown /api path goes, after spending "${route.budget}"`, async () => {
      expect(appRouteOf(UNKNOWN_PATH)).toBeUndefined();
      const rewrittenTo = (res: Response) => res.headers.get("x-middleware-rewrite") && new URL(res.headers.get("x-middleware-rewrite")!).pathname;
      // Signed out: nobody to charge, and the same answer.
      expect(rewrittenTo(await proxyModule.proxy(request(route.path)))).toBe(UNKNOWN_PATH);
      const cookie = await newUser();
      for (const method of ["GET", "HEAD"]) {
        const res = await proxyModule.proxy(request(`${route.path}?format=csv`, { method, cookie }));
        if (method === "GET") {
          expect(res.status).toBe(200);
          expect(rewrittenTo(res)).toBe(UNKNOWN_PATH);
        } else {
          // The budget (1) was spent by the GET, before the operator check: a non-operator is counted too.
          expect(res.status).toBe(429);
          expect(res.headers.get("ratelimit-policy")).toBe(`"${route.budget}";q=1;w=60`);
        }
      }
    });
  }

  it("let an operator through to the handler, spending the same budget", async () => {
    const { userRecords } = await import("@/lib/operators/user-records");
    const { userKeyFor } = await import("@/lib/auth/user-key");
    const { getConfig } = await import("@/lib/env");
    const subject = `oscar-${randomUUID()}`;
    await userRecords.recordUserSignIn(userKeyFor(getConfig().issuer, subject), { email: "oscar@example.com", email_verified: true });
    const cookie = await signedInCookie(subject, ORIGIN);
    const passed = await proxyModule.proxy(request("/api/operator/export?format=csv", { cookie }));
    expect(passed.status).toBe(200);
    expect(passed.headers.get("x-middleware-rewrite")).toBeNull();
    expect(passed.headers.get("x-middleware-next")).toBe("1");
    expect((await proxyModule.proxy(request("/api/operator/access-log/export", { cookie }))).status).toBe(429);
  });
});
