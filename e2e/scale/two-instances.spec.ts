import { test, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { createClient } from "redis";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";
import { startAppInstance, startSandboxProcess, type SandboxUrls } from "../../scripts/lib/app-cluster";
import type { RunningProcess } from "../../scripts/lib/child-process";
import type { SandboxStats } from "../fixtures/sandbox";
import { fillSandboxSignIn, users } from "../fixtures/users";

/**
 * Two production instances (standalone server) of one build share refresh coordination through a real
 * redis-server; one sandbox rotates refresh tokens and revokes the grant on reuse. This spec starts all of
 * them on its own ports, signs in once in the browser, then drives one session's requests at both instances.
 */
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PORTS = {
  redis: port("SCALE_E2E_REDIS_PORT", 4630),
  auth: port("SCALE_E2E_AUTH_PORT", 4631),
  api: port("SCALE_E2E_API_PORT", 4632),
  blob: port("SCALE_E2E_BLOB_PORT", 4633),
  appA: port("SCALE_E2E_APP_A_PORT", 4634),
  appB: port("SCALE_E2E_APP_B_PORT", 4635),
};
const TTL_SECONDS = 8;
// Short deadline for token calls, so a dead lock holder blocks others for only 3 + 2 s (lock TTL).
const REQUEST_TIMEOUT_MS = 3_000;
const AUTH_SECRET = "scale-e2e-only-auth-secret-0123456789abcdef0123";
const SERVER_ACTIONS_KEY = Buffer.alloc(32, 7).toString("base64");
const CLIENT_SECRET = "partner-app-secret";
const WARNING = "refresh store: Redis at";
const REPLAY_GRACE_MS = 60_000;

test.describe.configure({ mode: "serial" });

type Instance = { name: "A" | "B"; url: string; logs: string[]; proc: RunningProcess };
let redis: RunningRedis;
let sandbox: RunningProcess & { urls: SandboxUrls };
let a: Instance;
let b: Instance;
let context: BrowserContext;
let page: Page;
let inspector: ReturnType<typeof createClient>;
/** What the browser saw (headers and textual bodies), checked for tokens at the end. */
const browserSaw: string[] = [];

async function startInstance(name: "A" | "B", appPort: number): Promise<Instance> {
  const logs: string[] = [];
  const proc = await startAppInstance({
    port: appPort,
    authUrl: `http://localhost:${appPort}`,
    sandbox: sandbox.urls,
    authSecret: AUTH_SECRET,
    serverActionsKey: SERVER_ACTIONS_KEY,
    redisUrl: `redis://127.0.0.1:${PORTS.redis}`,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    log: (line) => logs.push(line),
  });
  return { name, url: proc.url, logs, proc };
}

const admin = {
  stats: async (): Promise<SandboxStats> => (await fetch(`${sandbox.urls.api}/_sandbox/stats`)).json() as Promise<SandboxStats>,
  reset: async () => void (await fetch(`${sandbox.urls.api}/_sandbox/reset`, { method: "POST" })),
  fault: async (fault: object) => {
    const res = await fetch(`${sandbox.urls.api}/_sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(fault) });
    expect(res.status).toBeLessThan(300);
  },
  issuedTokens: async () => ((await (await fetch(`${sandbox.urls.api}/_sandbox/issued-tokens`)).json()) as { tokens: string[] }).tokens,
};

type Timed = { instance: string; status: number; ms: number; code?: string };

/** GET /api/account on one instance with the context's session cookie; the rotated cookie is kept. */
async function account(request: APIRequestContext, instance: Instance): Promise<Timed> {
  const started = Date.now();
  const res = await request.get(`${instance.url}/api/account`, { timeout: 20_000 });
  const body = res.status() === 200 ? undefined : ((await res.json().catch(() => ({}))) as { error?: { code?: string } });
  return { instance: instance.name, status: res.status(), ms: Date.now() - started, code: body?.error?.code };
}

/** n parallel requests of the session, alternating between the instances. */
const spread = (n: number, request: APIRequestContext = page.request) =>
  Promise.all(Array.from({ length: n }, (_, i) => account(request, i % 2 ? b : a)));

const waitForExpiry = () => page.waitForTimeout(TTL_SECONDS * 1000 + 500);
const warnings = (instance: Instance) => instance.logs.filter((l) => l.includes(WARNING) && l.includes("is unavailable"));
const recoveries = (instance: Instance) => instance.logs.filter((l) => l.includes(WARNING) && l.includes("available again"));

/** Every key and value in Redis: none may contain a token the sandbox issued or a secret; every key expires. */
async function scanRedis(): Promise<number> {
  const keys: string[] = [];
  for await (const batch of inspector.scanIterator({ COUNT: 100 })) keys.push(...batch);
  const entries = await Promise.all(keys.map(async (key) => ({ key, value: (await inspector.get(key)) ?? "", pttl: await inspector.pTTL(key) })));
  const secrets = [...(await admin.issuedTokens()), AUTH_SECRET, SERVER_ACTIONS_KEY, CLIENT_SECRET];
  expect(secrets.length).toBeGreaterThan(3);
  for (const entry of entries) {
    for (const secret of secrets) {
      expect(entry.key.includes(secret) || entry.value.includes(secret), `Redis entry ${entry.key} contains a token or secret`).toBe(false);
    }
    expect(entry.pttl, `${entry.key} must expire`).toBeGreaterThan(0);
    expect(entry.pttl).toBeLessThanOrEqual(REPLAY_GRACE_MS);
  }
  return entries.length;
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(180_000);
  redis = await startRedisServer(PORTS.redis);
  inspector = createClient({ url: redis.url });
  inspector.on("error", () => {}); // rides through the Redis restart below
  await inspector.connect();
  const appUrls = [PORTS.appA, PORTS.appB].map((p) => `http://localhost:${p}`);
  sandbox = await startSandboxProcess({ auth: PORTS.auth, api: PORTS.api, blob: PORTS.blob }, { appUrls, accessTokenTtlSeconds: TTL_SECONDS });
  [a, b] = await Promise.all([startInstance("A", PORTS.appA), startInstance("B", PORTS.appB)]);

  // Cookies are per host, not per port: the session cookie set by A is sent to B too, as behind one balancer.
  context = await browser.newContext({ baseURL: a.url });
  page = await context.newPage();
  context.on("response", async (res) => {
    const type = res.headers()["content-type"] ?? "";
    const body = /json|text|javascript|html|x-component/.test(type) ? await res.text().catch(() => "") : "";
    browserSaw.push(`${res.url()}\n${JSON.stringify(await res.allHeaders().catch(() => ({})))}\n${body}`);
  });
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await fillSandboxSignIn(page, users.alice);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL("**/account");
  await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
});

test.afterAll(async () => {
  await context?.close();
  inspector?.destroy();
  await Promise.all([a?.proc.stop(), b?.proc.stop(), sandbox?.stop(), redis?.stop()]);
});

test("three expiries in a row: 20 parallel requests over both instances each time, one refresh, no reuse", async () => {
  test.setTimeout(90_000);
  for (let expiry = 1; expiry <= 3; expiry++) {
    await waitForExpiry();
    await admin.reset();
    const results = await spread(20);
    expect(results.map((r) => r.status), `statuses after expiry ${expiry}`).toEqual(Array(20).fill(200));
    expect(results.filter((r) => r.instance === "A")).toHaveLength(10);
    const stats = await admin.stats();
    expect(stats.grants.refresh_token, `refresh_token grants after expiry ${expiry}`).toBe(1);
    expect(stats.refreshReuse).toBe(0);
  }
});

test("a request with the pre-rotation cookie sent to the other instance within the grace period gets 200, no second refresh", async ({ browser }) => {
  await waitForExpiry();
  const oldCookies = await context.cookies();
  await admin.reset();
  // A refreshes (the browser gets the rotated cookie)…
  expect((await account(page.request, a)).status).toBe(200);
  expect((await admin.stats()).grants.refresh_token).toBe(1);
  // …while a request the browser sent earlier, still with the old cookie, reaches B.
  const stale = await browser.newContext({ storageState: { cookies: oldCookies, origins: [] } });
  try {
    const late = await account(stale.request, b);
    expect(late.status).toBe(200);
  } finally {
    await stale.close();
  }
  const stats = await admin.stats();
  expect(stats.grants.refresh_token).toBe(1);
  expect(stats.refreshReuse).toBe(0);
  // The shared result is in Redis and reveals nothing.
  expect(await scanRedis()).toBeGreaterThan(0);
});

test("Redis killed mid-run: no 5xx, nothing slower than 2 s, one warning per instance; restarted: coordination resumes", async () => {
  test.setTimeout(90_000);
  // Start from a fresh token, refreshed with Redis up.
  await waitForExpiry();
  expect((await spread(4)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  expect(warnings(a)).toHaveLength(0);
  expect(warnings(b)).toHaveLength(0);

  const observed: Timed[] = [];
  // Traffic on both instances while Redis dies.
  const traffic = (async () => {
    for (let i = 0; i < 20; i++) {
      observed.push(await account(page.request, i % 2 ? b : a));
      await page.waitForTimeout(100);
    }
  })();
  await page.waitForTimeout(800);
  process.kill(-redis.child.pid!, "SIGKILL");
  await traffic;

  // A refresh while Redis is down: coordinated inside instance A, one token call, nothing hangs.
  await waitForExpiry();
  await admin.reset();
  observed.push(...(await Promise.all(Array.from({ length: 10 }, () => account(page.request, a)))));
  observed.push(...(await spread(10)));
  expect((await admin.stats()).grants.refresh_token).toBe(1);

  expect(observed.filter((r) => r.status >= 500), "5xx while Redis is down").toEqual([]);
  expect(observed.filter((r) => r.status !== 200)).toEqual([]);
  expect(Math.max(...observed.map((r) => r.ms)), "slowest request (ms)").toBeLessThan(2_000);
  expect(warnings(a), "warnings from A").toHaveLength(1);
  expect(warnings(b), "warnings from B").toHaveLength(1);
  console.log(`Redis down: ${observed.length} requests, statuses ${[...new Set(observed.map((r) => r.status))].join("/")}, slowest ${Math.max(...observed.map((r) => r.ms))} ms, warnings A ${warnings(a).length} B ${warnings(b).length}`);
  for (const line of [...warnings(a), ...warnings(b)]) expect(line).not.toContain("redis://");

  // Redis comes back (empty, as after a crash without persistence): both instances reconnect by themselves…
  redis = await startRedisServer(PORTS.redis);
  await expect.poll(() => recoveries(a).length + recoveries(b).length, { timeout: 10_000 }).toBe(2);
  // …and coordinate again: the next expiry across both instances makes one refresh, through Redis.
  await waitForExpiry();
  await admin.reset();
  const results = await spread(20);
  expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
  const stats = await admin.stats();
  expect(stats.grants.refresh_token).toBe(1);
  expect(stats.refreshReuse).toBe(0);
  expect(await inspector.dbSize(), "the refresh went through the restarted Redis").toBeGreaterThan(0);
  expect(warnings(a)).toHaveLength(1);
  expect(warnings(b)).toHaveLength(1);
});

test("the lock holder dies mid-refresh: the session survives or asks to sign in again, never a 5xx", async () => {
  test.setTimeout(60_000);
  await waitForExpiry();
  await admin.reset();
  // A's token call hangs in the sandbox for 2.5 s; A is killed while it holds the lock.
  await admin.fault({ target: "token", grantType: "refresh_token", delayMs: 2_500, count: 1 });
  const holder = account(page.request, a).catch((error: unknown) => error);
  await page.waitForTimeout(500);
  const waiter = account(page.request, b);
  await page.waitForTimeout(300);
  process.kill(-a.proc.child.pid!, "SIGKILL");
  await a.proc.stop();
  await holder;

  // B waits out the dead holder's lock (3 s deadline + 2 s margin), then refreshes itself.
  const result = await waiter;
  expect(result.status, "B's answer").toBeLessThan(500);
  expect(result.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000 + 3_000);
  if (result.status !== 200) expect([result.status, result.code]).toEqual([401, "SESSION_EXPIRED"]);

  const statuses: number[] = [];
  page.on("response", (r) => statuses.push(r.status()));
  await page.goto(`${b.url}/account`);
  if (result.status === 200) {
    await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
  } else {
    await expect(page.getByText("Your session has expired").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in again" }).first()).toBeVisible();
  }
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  console.log(`holder death: B answered ${result.status}${result.code ? ` ${result.code}` : ""} after ${result.ms} ms (${result.status === 200 ? "session survived" : "clean sign-in-again"})`);
});

test("Redis holds no token or secret, and every key is gone after the grace period; app logs and the browser hold no token", async () => {
  test.setTimeout(REPLAY_GRACE_MS + 30_000);
  expect(await scanRedis()).toBeGreaterThan(0);
  await expect.poll(() => inspector.dbSize(), { timeout: REPLAY_GRACE_MS + 10_000, intervals: [1_000] }).toBe(0);

  const secrets = [...(await admin.issuedTokens()), AUTH_SECRET, SERVER_ACTIONS_KEY, CLIENT_SECRET];
  for (const instance of [a, b]) {
    const text = instance.logs.join("\n");
    expect(text.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(text.includes(secret), `instance ${instance.name}'s log contains a token or secret`).toBe(false);
  }
  const cookies = JSON.stringify(await context.cookies());
  expect(browserSaw.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    expect(cookies.includes(secret), "a cookie contains a token or secret").toBe(false);
    expect(browserSaw.filter((text) => text.includes(secret)), "responses the browser saw with a token or secret").toEqual([]);
  }
});
