import { createServer, type Server } from "node:http";
import { test, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { startAppInstance, startSandboxProcess, type SandboxUrls } from "../../scripts/lib/app-cluster";
import type { RunningProcess } from "../../scripts/lib/child-process";
import { signIn, users } from "../fixtures/users";
import { sessionStoreDir } from "../session-store-scan";
import { tracingPorts as PORTS } from "./ports";

/**
 * One instance with OTEL_EXPORTER_OTLP_ENDPOINT set exports its spans (OTLP/HTTP JSON) to a small receiver this
 * spec runs; a sign-in and an account page after the access token expired must show up as request spans with
 * child spans for the calls they made to the service, and nothing secret anywhere in them.
 */
const TTL_SECONDS = 8;
const AUTH_SECRET = "tracing-e2e-only-auth-secret-0123456789abcdef0123";
const CLIENT_SECRET = "partner-app-secret";

type Attribute = { key: string; value: Record<string, unknown> };
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: Attribute[] };
type Span = OtlpSpan & { attrs: Record<string, unknown> };

test.describe.configure({ mode: "serial" });

let sandbox: RunningProcess & { urls: SandboxUrls };
let app: RunningProcess & { url: string };
let receiver: Server;
/** Every export request body, as received. */
const exports: string[] = [];
let context: BrowserContext;
let page: Page;

function receivedSpans(): Span[] {
  return exports.flatMap((text) => {
    const body = JSON.parse(text) as { resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[] };
    return (body.resourceSpans ?? []).flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []));
  }).map((span) => ({
    ...span,
    attrs: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]])),
  }));
}

/** The request span named `name` whose trace also holds client spans for each of `children`, all its direct children. */
function traceWith(name: string, children: string[]): { request: Span; children: Span[] } | undefined {
  const spans = receivedSpans();
  for (const request of spans.filter((s) => s.name === name)) {
    const found = children.map((child) => spans.find((s) => s.name === child && s.traceId === request.traceId && s.parentSpanId === request.spanId));
    if (found.every(Boolean)) return { request, children: found as Span[] };
  }
  return undefined;
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.url === "/v1/traces") exports.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(PORTS.otlp, "127.0.0.1", resolve));
  const appUrl = `http://localhost:${PORTS.appA}`;
  sandbox = await startSandboxProcess({ auth: PORTS.auth, api: PORTS.api, blob: PORTS.blob }, { appUrls: [appUrl], accessTokenTtlSeconds: TTL_SECONDS });
  app = await startAppInstance({
    port: PORTS.appA,
    authUrl: appUrl,
    sandbox: sandbox.urls,
    authSecret: AUTH_SECRET,
    serverActionsKey: Buffer.alloc(32, 5).toString("base64"),
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${PORTS.otlp}`,
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_SERVICE_NAME: "esign-partner-e2e",
      SESSION_STORE_DIR: sessionStoreDir(PORTS.appA),
      // Stopped at the end without a balancer to notice its readiness.
      SHUTDOWN_READINESS_DELAY_MS: "0",
    },
  });
  context = await browser.newContext({ baseURL: app.url });
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  await Promise.all([app?.stop(), sandbox?.stop()]);
  await new Promise((resolve) => receiver?.close(resolve));
});

test("a sign-in and an account page after expiry reach the OTLP receiver as request spans with child spans per service call, and hold no secret", async () => {
  test.setTimeout(90_000);
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toContainText(users.alice.email);

  // The callback request: its code exchange at the token endpoint is its child.
  await expect
    .poll(() => Boolean(traceWith("GET /api/auth/callback", ["esign token"])), { timeout: 30_000 })
    .toBe(true);
  const callback = traceWith("GET /api/auth/callback", ["esign token"])!;
  expect(callback.children[0]!.attrs["url.path"]).toBe("/connect/token");
  expect(callback.children[0]!.attrs["http.response.status_code"]).toBe(200);

  // After expiry one page request refreshes (proxy.ts) and reads the record (server render): one trace, two children.
  await page.waitForTimeout(TTL_SECONDS * 1000 + 500);
  const response = await page.goto("/account");
  await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
  const requestId = response!.headers()["x-request-id"];
  await expect
    .poll(() => Boolean(traceWith("GET /account", ["esign refresh", "esign getuserinfo"])), { timeout: 30_000 })
    .toBe(true);
  const accountTrace = traceWith("GET /account", ["esign refresh", "esign getuserinfo"])!;
  const [refresh, getuserinfo] = accountTrace.children;
  expect(accountTrace.request.attrs).toMatchObject({ "http.response.status_code": 200, "esign.request_id": requestId, "http.route": "/account" });
  expect(refresh!.attrs).toMatchObject({ "esign.operation": "refresh", "url.path": "/connect/token", "http.response.status_code": 200, "esign.request_id": requestId });
  expect(getuserinfo!.attrs).toMatchObject({ "esign.operation": "getuserinfo", "url.path": "/api/getuserinfo", "http.response.status_code": 200 });
  console.log(
    `trace ${accountTrace.request.traceId}: ${accountTrace.request.name} → ${accountTrace.children.map((c) => `${c.name} (${c.attrs["http.response.status_code"]})`).join(", ")}; ${receivedSpans().length} spans received`,
  );

  // Nothing secret in any export: no token the sandbox issued, no cookie value, no secret, no code or query.
  const issued = ((await (await fetch(`${sandbox.urls.api}/_sandbox/issued-tokens`)).json()) as { tokens: string[] }).tokens;
  const cookies = (await context.cookies()).map((c) => c.value).filter((v) => v.length > 8);
  const secrets = [...issued, ...cookies, AUTH_SECRET, CLIENT_SECRET];
  expect(issued.length).toBeGreaterThan(3);
  const text = exports.join("\n");
  for (const secret of secrets) expect(text.includes(secret), "a token, cookie or secret in an exported span").toBe(false);
  expect(text).not.toMatch(/Bearer |code=|state=|sig=|authjs/);
  for (const span of receivedSpans()) {
    for (const value of Object.values(span.attrs)) expect(String(value)).not.toMatch(/[?&]|@/);
  }
});
