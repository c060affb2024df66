import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInCookie } from "../support/signed-in-cookie";

// The route handlers and proxy.ts with small budgets, over a real embedded session store and database, and a stand-in
// for the service's API that answers what each test arranges and counts what reaches it.
const ORIGIN = "http://localhost:3000";

let dir: string;
let api: Server;
const reached: string[] = [];
let apiAnswer: (path: string) => { status: number; headers?: Record<string, string>; body: unknown } = () => ({ status: 200, body: {} });

let listRoute: typeof import("@/app/api/documents/route");
let accountRoute: typeof import("@/app/api/account/route");
let proxyModule: typeof import("@/proxy");
let metrics: typeof import("@/lib/metrics/registry");
let closeDatabase: () => Promise<void>;

function request(path: string, options: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {}): NextRequest {
  return new NextRequest(`${ORIGIN}${path}`, {
    method: options.method ?? "GET",
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.method && options.method !== "GET" ? { origin: ORIGIN } : {}),
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
}

async function rateLimitedCount(route: string, reason: string): Promise<number> {
  const metric = await metrics.getMetricsRegistry().getSingleMetric("esign_rate_limited_total")?.get();
  return metric?.values.find((v) => v.labels.route === route && v.labels.reason === reason)?.value ?? 0;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rate-limited-routes-"));
  api = createServer((req, res) => {
    reached.push(req.url ?? "");
    req.resume();
    const { status, headers, body } = apiAnswer(req.url ?? "");
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    ESIGN_AUTH_URL: "http://127.0.0.1:1",
    ESIGN_API_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
    ESIGN_USE_SANDBOX: "true",
    SESSION_STORE_DIR: join(dir, "sessions"),
    DATABASE_DIR: join(dir, "db"),
    // Metrics are recorded only when something could read them; no listener is started here.
    METRICS_PORT: "1",
    RATE_LIMIT_DOCUMENTS_LIST: "2/60",
    RATE_LIMIT_DOCUMENTS_CREATE: "2/60",
    RATE_LIMIT_ACCOUNT: "50/60",
    RATE_LIMIT_DOCUMENT_PAGE: "1/60",
    RATE_LIMIT_OPERATOR_PAGES: "2/60",
  });
  listRoute = await import("@/app/api/documents/route");
  accountRoute = await import("@/app/api/account/route");
  proxyModule = await import("@/proxy");
  metrics = await import("@/lib/metrics/registry");
  const db = await import("@/lib/db/client");
  closeDatabase = db.closeDatabase;
  await db.getDatabase();
});

afterAll(async () => {
  await closeDatabase();
  await new Promise((resolve) => api.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe("a spent budget", () => {
  it("answers 429 with Retry-After, the RateLimit fields and the budget's name, for that user only", async () => {
    const alice = await signedInCookie(`alice-${randomUUID()}`, ORIGIN);
    const bob = await signedInCookie(`bob-${randomUUID()}`, ORIGIN);
    const list = (cookie: string) => listRoute.GET(request("/api/documents", { cookie }), {});
    expect((await list(alice)).status).toBe(200);
    expect((await list(alice)).status).toBe(200);
    const refused = await list(alice);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-policy")).toBe('"documents-list";q=2;w=60');
    expect(refused.headers.get("ratelimit")).toBe(`"documents-list";r=0;t=${wait}`);
    expect(await refused.json()).toEqual({
      error: {
        code: "RATE_LIMITED",
        message: `Too many requests of this kind (limit "documents-list": 2 per 60 s). Try again in ${wait} s.`,
        limit: "documents-list",
        retryAfterSeconds: wait,
      },
    });
    expect(await rateLimitedCount("/api/documents", "documents-list")).toBe(1);
    expect((await list(bob)).status).toBe(200);
  });

  it("gives back what a request of an ended session spent: an old cookie answers 401 and cannot use up its user's budget", async () => {
    const subject = `alice-${randomUUID()}`;
    const alice = await signedInCookie(subject, ORIGIN);
    // The same user's cookie from a session that has ended (signed out, or ended from another device).
    const { encodeSessionToken, sessionCookieName } = await import("@/lib/auth/session-cookie");
    const req = new NextRequest(`${ORIGIN}/`);
    const ended = `${sessionCookieName(req)}=${await encodeSessionToken(req, { sub: subject, sessionHandle: `ended-${randomUUID()}` })}`;
    const list = (cookie: string) => listRoute.GET(request("/api/documents", { cookie }), {});
    for (let i = 0; i < 3; i++) expect((await list(ended)).status).toBe(401);
    // The budget (2 a minute) is whole for the live session.
    expect((await list(alice)).status).toBe(200);
    expect((await list(alice)).status).toBe(200);
    expect((await list(alice)).status).toBe(429);
  });

  it("keeps a refused creation from reaching the service, and passes the service's own 429 on with its wait, once", async () => {
    const alice = await signedInCookie(`alice-${randomUUID()}`, ORIGIN);
    apiAnswer = () => ({ status: 429, headers: { "retry-after": "17" }, body: { error: "too_many_requests" } });
    const create = () => listRoute.POST(request("/api/documents", { method: "POST", cookie: alice, body: { name: "Lease.pdf", doctype: "contract" } }), {});
    const before = reached.length;

    const service = await create();
    expect(service.status).toBe(429);
    expect(service.headers.get("retry-after")).toBe("17");
    expect((await service.json()).error).toMatchObject({ code: "SERVICE_RATE_LIMITED", limit: "service", retryAfterSeconds: 17 });
    // Not retried by the app: one call at the service for one request.
    expect(reached.length - before).toBe(1);
    expect(await rateLimitedCount("/api/documents", "service")).toBe(1);

    expect((await create()).status).toBe(429);
    const ours = await create();
    expect(ours.status).toBe(429);
    expect((await ours.json()).error).toMatchObject({ code: "RATE_LIMITED", limit: "documents-create" });
    // The third was refused by the app's budget before any call to the service.
    expect(reached.length - before).toBe(2);
  });

  it("passes on the service's 429 for the account, reading an HTTP-date Retry-After", async () => {
    const alice = await signedInCookie(`alice-${randomUUID()}`, ORIGIN);
    apiAnswer = () => ({ status: 429, headers: { "retry-after": new Date(Date.now() + 120_000).toUTCString() }, body: {} });
    const res = await accountRoute.GET(request("/api/account", { cookie: alice }), {});
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(118);
    expect(wait).toBeLessThanOrEqual(121);
    expect((await res.json()).error.code).toBe("SERVICE_RATE_LIMITED");
  });

  it("answers a document's page with a 429 page in the user's language", async () => {
    const alice = await signedInCookie(`alice-${randomUUID()}`, ORIGIN);
    const page = (headers: Record<string, string> = {}) =>
      proxyModule.proxy(request(`/documents/${randomUUID()}`, { cookie: alice, headers: { "accept-language": "ja", ...headers } }));
    expect((await page()).status).toBe(200);
    const refused = await page();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(refused.headers.get("ratelimit-policy")).toBe('"document-page";q=1;w=60');
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    const html = await refused.text();
    expect(html).toContain("<html lang=\"ja\">");
    expect(html).toContain(`${wait} 秒後にもう一度お試しいただけます。`);
    expect(await rateLimitedCount("/documents/:itemId", "document-page")).toBe(1);
  });

  it("spends the operator-pages budget on every page under /operator, and not on other pages", async () => {
    const alice = await signedInCookie(`alice-${randomUUID()}`, ORIGIN);
    const page = (path: string, headers: Record<string, string> = {}) => proxyModule.proxy(request(path, { cookie: alice, headers }));
    expect((await page("/operator")).status).toBe(200);
    expect((await page("/operator/users/abc/documents/def")).status).toBe(200);
    const refused = await page("/operator/search");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-policy")).toBe('"operator-pages";q=2;w=60');
    expect(await rateLimitedCount("/operator/search", "operator-pages")).toBe(1);
    // Pages outside /operator keep their own budgets (a path that reaches nothing spends "other-pages").
    expect((await page("/operators-guide")).status).toBe(200);
  });
});
