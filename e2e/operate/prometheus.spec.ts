import { test, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";
import { startAppInstance, startSandboxProcess, type SandboxUrls } from "../../scripts/lib/app-cluster";
import type { RunningProcess } from "../../scripts/lib/child-process";
import { startPrometheus, type RunningPrometheus } from "../../scripts/lib/prometheus-server";
import { refreshesSince } from "../fixtures/refresh-spacing";
import type { SandboxStats } from "../fixtures/sandbox";
import { signIn, users } from "../fixtures/users";
import { operatePorts as PORTS } from "./ports";

/**
 * A real Prometheus (Debian's, a child process on loopback) scrapes two production instances that share Redis,
 * while one signed-in session lives through three expiries with its requests spread over both. Everything is
 * asserted through PromQL, the sandbox's counters and the UI — nothing about how the session is stored.
 */
const TTL_SECONDS = 8;
const AUTH_SECRET = "operate-e2e-only-auth-secret-0123456789abcdef0123";
const SERVER_ACTIONS_KEY = Buffer.alloc(32, 9).toString("base64");
const CLIENT_SECRET = "partner-app-secret";

test.describe.configure({ mode: "serial" });

type Instance = { name: "A" | "B"; url: string; metricsUrl: string; proc: RunningProcess };
let redis: RunningRedis;
let sandbox: RunningProcess & { urls: SandboxUrls };
let prometheus: RunningPrometheus;
let a: Instance;
let b: Instance;
let context: BrowserContext;
let page: Page;

async function startInstance(name: "A" | "B", appPort: number, metricsPort: number): Promise<Instance> {
  const proc = await startAppInstance({
    port: appPort,
    authUrl: `http://localhost:${appPort}`,
    sandbox: sandbox.urls,
    authSecret: AUTH_SECRET,
    serverActionsKey: SERVER_ACTIONS_KEY,
    redisUrl: redis.url,
    // Stopped at the end without a balancer to notice its readiness.
    env: { METRICS_PORT: String(metricsPort), SHUTDOWN_READINESS_DELAY_MS: "0" },
  });
  return { name, url: proc.url, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, proc };
}

const admin = {
  stats: async (): Promise<SandboxStats> => (await fetch(`${sandbox.urls.api}/_sandbox/stats`)).json() as Promise<SandboxStats>,
  reset: async () => void (await fetch(`${sandbox.urls.api}/_sandbox/reset`, { method: "POST" })),
  issuedTokens: async () => ((await (await fetch(`${sandbox.urls.api}/_sandbox/issued-tokens`)).json()) as { tokens: string[] }).tokens,
};

async function account(request: APIRequestContext, instance: Instance): Promise<number> {
  return (await request.get(`${instance.url}/api/account`, { timeout: 20_000 })).status();
}

/** One value summed over both instances (0 when no series exists yet). */
async function total(promql: string): Promise<number> {
  const result = await prometheus.query(`sum(${promql}) or vector(0)`);
  return result[0]?.value ?? 0;
}

/** Waits until Prometheus has scraped both instances after `since` (ms epoch). */
async function scrapedAfter(since: number): Promise<void> {
  await expect
    .poll(async () => (await prometheus.query("timestamp(up)")).filter((r) => r.value * 1000 > since + 1_000).length, { timeout: 15_000 })
    .toBe(2);
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  redis = await startRedisServer(PORTS.redis);
  const appUrls = [PORTS.appA, PORTS.appB].map((p) => `http://localhost:${p}`);
  sandbox = await startSandboxProcess({ auth: PORTS.auth, api: PORTS.api, blob: PORTS.blob }, { appUrls, accessTokenTtlSeconds: TTL_SECONDS });
  [a, b] = await Promise.all([startInstance("A", PORTS.appA, PORTS.metricsA), startInstance("B", PORTS.appB, PORTS.metricsB)]);
  prometheus = await startPrometheus(PORTS.prometheus, [PORTS.metricsA, PORTS.metricsB].map((p) => `127.0.0.1:${p}`));
  // The first samples come a few seconds after Prometheus is ready.
  await expect.poll(async () => total("up"), { timeout: 20_000 }).toBe(2);

  context = await browser.newContext({ baseURL: a.url });
  page = await context.newPage();
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toContainText(users.alice.email);
});

test.afterAll(async () => {
  await context?.close();
  await Promise.all([prometheus?.stop(), a?.proc.stop(), b?.proc.stop(), sandbox?.stop(), redis?.stop()]);
});

test("a session lives through three expiries over two instances: PromQL counts every refresh granted (one per lifetime), 0 rejected, 0 × 5xx", async () => {
  test.setTimeout(120_000);
  await admin.reset();
  for (let expiry = 1; expiry <= 3; expiry++) {
    await page.waitForTimeout(TTL_SECONDS * 1000 + 500);
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => account(page.request, i % 2 ? b : a)));
    expect(statuses, `statuses after expiry ${expiry}`).toEqual(Array(20).fill(200));
  }
  // Still signed in, on the other instance, in the UI.
  await page.goto(`${b.url}/account`);
  await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
  const stats = await admin.stats();
  // A refresh per expiry, one per token lifetime (more only if these steps outlasted one on a loaded machine).
  const refreshes = refreshesSince(stats, 0, TTL_SECONDS);
  expect(refreshes).toBeGreaterThanOrEqual(3);
  expect(stats.refreshReuse).toBe(0);

  await scrapedAfter(Date.now());
  expect(await total('esign_token_refreshes_total{outcome="refreshed"}'), "the instances counted every refresh the service granted").toBe(refreshes);
  expect(await total('esign_token_refreshes_total{outcome="rejected"}')).toBe(0);
  expect(await total('esign_http_requests_total{status=~"5.."}')).toBe(0);
  // Requests that came while a refresh was under way joined it instead of calling the token endpoint themselves
  // (the others of the 60 read the session after it was fresh, and needed no new tokens).
  expect(await total('esign_token_refreshes_total{outcome=~"waited|replayed"}')).toBeGreaterThanOrEqual(1);
  expect(await total('esign_service_request_duration_seconds_count{operation="refresh",outcome="ok"}')).toBe(refreshes);
  // The code exchange of the sign-in, before the reset: one call, by instance A.
  expect(await total('esign_service_request_duration_seconds_count{operation="token",outcome="ok"}')).toBe(1);
  expect(await total('esign_http_requests_total{route="/api/account",status="200"}')).toBeGreaterThanOrEqual(60);
  const perInstance = await prometheus.query('sum by (instance) (esign_http_requests_total{route="/api/account"})');
  expect(perInstance.map((r) => r.value).every((v) => v >= 30), "both instances served the storms").toBe(true);
  console.log(
    `PromQL over both instances: refreshed ${await total('esign_token_refreshes_total{outcome="refreshed"}')}, waited+replayed ${await total('esign_token_refreshes_total{outcome=~"waited|replayed"}')}, rejected 0, 5xx 0`,
  );
});

test("the metrics hold no token, email, cookie, secret or query string", async () => {
  const texts = await Promise.all([a, b].map(async (instance) => (await fetch(instance.metricsUrl)).text()));
  const secrets = [...(await admin.issuedTokens()), AUTH_SECRET, SERVER_ACTIONS_KEY, CLIENT_SECRET];
  expect(secrets.length).toBeGreaterThan(5);
  for (const text of texts) {
    expect(text).toContain("esign_token_refreshes_total");
    for (const secret of secrets) expect(text.includes(secret), "a token or secret in the metrics").toBe(false);
    expect(text).not.toMatch(/@example\.com/);
    expect(text).not.toMatch(/authjs|session-token|cookie/i);
    // No label value carries a query string, a full URL or an email.
    const labelValues = [...text.matchAll(/="([^"]*)"/g)].map((m) => m[1]!);
    expect(labelValues.length).toBeGreaterThan(50);
    expect(labelValues.filter((v) => /[?&=@]|:\/\//.test(v))).toEqual([]);
  }
  // The metrics listener is not the app's port: the app has no /metrics.
  expect((await fetch(`${a.url}/metrics`)).status).toBe(404);
});

test("a Redis kill shows in esign_redis_up on both instances, and its return too", async () => {
  test.setTimeout(90_000);
  expect(await total("esign_redis_up")).toBe(2);
  process.kill(-redis.child.pid!, "SIGKILL");
  await redis.stop();
  // Redis holds the sessions: a signed-in request gets a 503 (nobody is signed out), and the outage shows in the metric.
  expect(await account(page.request, a)).toBe(503);
  await expect.poll(async () => (await prometheus.query("esign_redis_up == 0")).length, { timeout: 30_000 }).toBe(2);
  await expect.poll(async () => (await prometheus.query('esign_dependency_up{dependency="redis"} == 0')).length, { timeout: 30_000 }).toBe(2);

  redis = await startRedisServer(PORTS.redis);
  await expect.poll(async () => total("esign_redis_up"), { timeout: 30_000 }).toBe(2);
  // The only 5xx of the run are the outage's own 503s.
  await expect.poll(async () => total('esign_http_requests_total{status="503"}'), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  expect(await total('esign_http_requests_total{status=~"5..",status!="503"}')).toBe(0);
});
