import { test, expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { createClient } from "redis";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";
import { startAppInstance, startSandboxProcess, type SandboxUrls } from "../../scripts/lib/app-cluster";
import { UNLIMITED_BUDGETS } from "../../scripts/lib/unlimited-budgets";
import type { RunningProcess } from "../../scripts/lib/child-process";
import type { SandboxStats } from "../fixtures/sandbox";
import { refreshesSince } from "../fixtures/refresh-spacing";
import { signIn, users } from "../fixtures/users";
import { envPort } from "../../scripts/lib/env-port";

/**
 * Two production instances (standalone server) of one build share the session store through a real
 * redis-server; one sandbox rotates refresh tokens and revokes the grant on reuse. This spec starts all of
 * them on its own ports, signs in once in the browser, then drives one session's requests at both instances.
 */
const PORTS = {
  redis: envPort("SCALE_E2E_REDIS_PORT", 4630),
  auth: envPort("SCALE_E2E_AUTH_PORT", 4631),
  api: envPort("SCALE_E2E_API_PORT", 4632),
  blob: envPort("SCALE_E2E_BLOB_PORT", 4633),
  appA: envPort("SCALE_E2E_APP_A_PORT", 4634),
  appB: envPort("SCALE_E2E_APP_B_PORT", 4635),
};
const TTL_SECONDS = 8;
// Longer than the refresh lock's own lifetime (5 s), so a token call just under this deadline needs the lock renewed.
const REQUEST_TIMEOUT_MS = 6_000;
const AUTH_SECRET = "scale-e2e-only-auth-secret-0123456789abcdef0123";
const NEXT_AUTH_SECRET = "scale-e2e-only-next-auth-secret-fedcba9876543210";
const SERVER_ACTIONS_KEY = Buffer.alloc(32, 7).toString("base64");
const CLIENT_SECRET = "partner-app-secret";
const WARNING = "session store: Redis at";

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

async function startInstance(name: "A" | "B", appPort: number, authSecret = AUTH_SECRET): Promise<Instance> {
  const logs: string[] = [];
  const proc = await startAppInstance({
    port: appPort,
    authUrl: `http://localhost:${appPort}`,
    sandbox: sandbox.urls,
    authSecret,
    serverActionsKey: SERVER_ACTIONS_KEY,
    redisUrl: `redis://127.0.0.1:${PORTS.redis}`,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    // Every budget out of reach: the rotation test keeps one user's account requests coming every 50 ms for over a
    // minute, past the default "account" budget (300 per 10 minutes) on purpose. Budgets have specs of their own.
    // The default readiness delay stays: the rotation test's balancer may have sent a request an instant before it
    // stops an instance, which the delay lets finish (with none, that request met a closed socket).
    env: UNLIMITED_BUDGETS,
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

/** GET /api/account on one instance with the context's session cookie. */
async function account(request: APIRequestContext, instance: Instance): Promise<Timed> {
  const started = Date.now();
  const res = await request.get(`${instance.url}/api/account`, { timeout: 30_000 });
  const body = res.status() === 200 ? undefined : ((await res.json().catch(() => ({}))) as { error?: { code?: string } });
  return { instance: instance.name, status: res.status(), ms: Date.now() - started, code: body?.error?.code };
}

/** n parallel requests of the session, alternating between the instances. */
const spread = (n: number, request: APIRequestContext = page.request) =>
  Promise.all(Array.from({ length: n }, (_, i) => account(request, i % 2 ? b : a)));

const waitForExpiry = () => page.waitForTimeout(TTL_SECONDS * 1000 + 500);
/** The instance's outage warnings (and recoveries below), from its log line number `since` on. */
const warnings = (instance: Instance, since = 0) => instance.logs.slice(since).filter((l) => l.includes(WARNING) && l.includes("is unavailable"));
const recoveries = (instance: Instance, since = 0) => instance.logs.slice(since).filter((l) => l.includes(WARNING) && l.includes("available again"));

/** Every key and value in Redis: none may contain a token the sandbox issued, a secret or the user; every key expires. */
async function scanRedis(): Promise<number> {
  const keys: string[] = [];
  for await (const batch of inspector.scanIterator({ COUNT: 100 })) keys.push(...batch);
  const secrets = [...(await admin.issuedTokens()), AUTH_SECRET, SERVER_ACTIONS_KEY, CLIENT_SECRET, users.alice.email];
  expect(secrets.length).toBeGreaterThan(4);
  for (const key of keys) {
    const type = await inspector.type(key);
    const values =
      type === "hash" ? Object.values(await inspector.hGetAll(key)) : type === "zset" ? await inspector.zRange(key, 0, -1) : [(await inspector.get(key)) ?? ""];
    for (const secret of secrets) {
      expect([key, ...values].some((v) => v.includes(secret)), `Redis entry ${key} contains a token, secret or the user's email`).toBe(false);
    }
    // Sessions (and their indexes) expire with the session, locks, claims and rate-limit windows sooner; nothing
    // lives for ever. -1 is a key without expiry; -2 one that expired since the scan (a one-minute budget window).
    expect(await inspector.pTTL(key), `${key} must expire`).not.toBe(-1);
  }
  return keys.length;
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
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toContainText(users.alice.email);
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
    expect(refreshesSince(stats, 0, TTL_SECONDS), `refresh_token grants after expiry ${expiry}`).toBeGreaterThanOrEqual(1);
    expect(stats.refreshReuse).toBe(0);
  }
});

test("the lock outlives a slow refresh: a token call just under its deadline, across both instances, one refresh, no reuse", async () => {
  test.setTimeout(90_000);
  await waitForExpiry();
  await admin.reset();
  // Longer than the lock's 5 s lifetime: the holder must renew it, or the other instance would redeem the token again.
  await admin.fault({ target: "token", grantType: "refresh_token", delayMs: REQUEST_TIMEOUT_MS - 500, count: 1 });
  const results = await spread(10);
  expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
  const stats = await admin.stats();
  expect(stats.grants.refresh_token).toBe(1);
  expect(stats.refreshReuse).toBe(0);
  console.log(`slow refresh: ${results.length} requests, slowest ${Math.max(...results.map((r) => r.ms))} ms, 1 refresh, 0 reuse`);
});

test("Redis stalled: signed-in requests get a quick 503 and a page that says so, nobody is signed out; back: the session goes on", async () => {
  test.setTimeout(90_000);
  expect((await spread(4)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  // Both stores are healthy now: any earlier outage has ended. Not "never warned": on a busy machine a Redis reply can
  // miss the 300 ms deadline during the earlier tests, which those tests' requests ride through. Warnings and
  // recoveries below are counted from here, so they are the stall's.
  // Polled: a recovery line comes through the instance's stdout a moment after the request that caused it.
  for (const instance of [a, b]) {
    await expect.poll(() => recoveries(instance).length - warnings(instance).length, { message: `${instance.name} recovered from every earlier outage` }).toBe(0);
  }
  const since = { A: a.logs.length, B: b.logs.length };
  const stallWarnings = () => [...warnings(a, since.A), ...warnings(b, since.B)];
  const stallRecoveries = () => [...recoveries(a, since.A), ...recoveries(b, since.B)];

  process.kill(redis.child.pid!, "SIGSTOP");
  try {
    const observed = await spread(10);
    expect(observed.map((r) => [r.status, r.code])).toEqual(Array(10).fill([503, "SESSION_STORE_UNAVAILABLE"]));
    expect(Math.max(...observed.map((r) => r.ms)), "slowest request (ms)").toBeLessThan(2_000);
    const res = await page.goto(`${a.url}/account`);
    expect(res?.status()).toBe(503);
    await expect(page.getByRole("heading", { name: "We'll be right back" })).toBeVisible();
    await expect(page.getByText("You are still signed in")).toBeVisible();
    expect(await context.cookies(), "the session cookie is kept").toEqual(expect.arrayContaining([expect.objectContaining({ name: "authjs.session-token" })]));
    console.log(`Redis stalled: ${observed.length} requests, all 503 SESSION_STORE_UNAVAILABLE, slowest ${Math.max(...observed.map((r) => r.ms))} ms, warnings A ${warnings(a, since.A).length} B ${warnings(b, since.B).length}`);
  } finally {
    process.kill(redis.child.pid!, "SIGCONT");
  }
  for (const line of stallWarnings()) expect(line).not.toContain("redis://");
  expect(stallWarnings().length).toBeGreaterThanOrEqual(1);

  // Redis answers again: the same session goes on without a sign-in, and each instance that noticed says so once.
  await expect.poll(async () => (await spread(4)).map((r) => r.status), { timeout: 10_000 }).toEqual([200, 200, 200, 200]);
  expect(stallRecoveries()).toHaveLength(stallWarnings().length);
  await page.goto(`${b.url}/account`);
  await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
});

test("AUTH_SECRET rotated one instance at a time under load: nobody signed out, no double refresh", async () => {
  test.setTimeout(180_000);
  const observed: Timed[] = [];
  let running = true;
  let restarting: Instance["name"] | null = null;
  // A balancer's view: requests go to whichever instance is up.
  const traffic = (async () => {
    for (let i = 0; running; i++) {
      const target = restarting === "A" ? b : restarting === "B" ? a : i % 2 ? b : a;
      observed.push(await account(page.request, target));
      await page.waitForTimeout(50);
    }
  })();
  const restart = async (name: "A" | "B", secret: string) => {
    restarting = name;
    const old = name === "A" ? a : b;
    await old.proc.stop();
    const fresh = await startInstance(name, name === "A" ? PORTS.appA : PORTS.appB, secret);
    if (name === "A") a = fresh;
    else b = fresh;
    restarting = null;
  };
  await admin.reset();
  const started = Date.now();
  // Step 1: the new secret added to decrypt only, everywhere; step 2: the new secret first, everywhere.
  await restart("A", `${AUTH_SECRET},${NEXT_AUTH_SECRET}`);
  await restart("B", `${AUTH_SECRET},${NEXT_AUTH_SECRET}`);
  await restart("A", `${NEXT_AUTH_SECRET},${AUTH_SECRET}`);
  await restart("B", `${NEXT_AUTH_SECRET},${AUTH_SECRET}`);
  // Let the load run across at least one more expiry with both instances on the new secret.
  await page.waitForTimeout(TTL_SECONDS * 1000 + 1_000);
  running = false;
  await traffic;
  const elapsedS = (Date.now() - started) / 1000;

  expect(observed.length).toBeGreaterThan(20);
  expect(observed.filter((r) => r.status !== 200), "every request answered 200").toEqual([]);
  const stats = await admin.stats();
  expect(stats.refreshReuse).toBe(0);
  expect(stats.tokenErrors).toEqual({});
  // At most one refresh per token lifetime: a token is refreshed 2 s before it expires (the app's margin for
  // tokens this short), so every 6 s under steady load, whichever instance does it.
  expect(refreshesSince(stats, started, TTL_SECONDS)).toBeGreaterThanOrEqual(1);
  console.log(`secret rotation under load: ${observed.length} requests over ${elapsedS.toFixed(0)} s, all 200, ${stats.grants.refresh_token} refreshes, 0 reuse`);
});

test("sign out everywhere on A while B's refresh is held at the token endpoint: B's session stays ended", async ({ browser }: { browser: Browser }) => {
  test.setTimeout(60_000);
  const issuedBefore = new Set(await admin.issuedTokens());
  // Two more browsers of another user, so alice's session above is untouched.
  const [held, signingOut] = await Promise.all([browser.newContext({ baseURL: a.url }), browser.newContext({ baseURL: a.url })]);
  try {
    await signIn(await held.newPage(), users.bob);
    const heldExpiresAt = Date.now() + TTL_SECONDS * 1000 + 500;
    await signIn(await signingOut.newPage(), users.bob);
    await page.waitForTimeout(heldExpiresAt - Date.now());

    await admin.fault({ target: "token", grantType: "refresh_token", delayMs: 4_000, count: 1 });
    const refreshing = account(held.request, b);
    await page.waitForTimeout(1_000);
    expect((await signingOut.request.delete(`${a.url}/api/sessions`)).status()).toBe(200);
    expect(await refreshing).toMatchObject({ instance: "B", status: 401 });
    // Still ended a token lifetime later, on either instance.
    await page.waitForTimeout(TTL_SECONDS * 1000 + 500);
    expect((await account(held.request, a)).status).toBe(401);
    expect((await account(held.request, b)).status).toBe(401);

    const issued = (await admin.issuedTokens()).filter((t) => !issuedBefore.has(t));
    const statuses = await Promise.all(
      issued.map(async (t) => ((await (await fetch(`${sandbox.urls.api}/_sandbox/refresh-token-status?token=${encodeURIComponent(t)}`)).json()) as { status: string }).status),
    );
    expect(statuses.filter((st) => st === "active"), "no refresh token of this test still usable").toEqual([]);
  } finally {
    await Promise.all([held.close(), signingOut.close()]);
  }
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

  // B waits out the dead holder's lock (5 s at most), then refreshes itself.
  const result = await waiter;
  expect(result.status, "B's answer").toBeLessThan(500);
  expect(result.ms).toBeLessThan(5_000 + REQUEST_TIMEOUT_MS + 2_000);
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

test("Redis holds no token, secret or email, and every key expires; app logs and the browser hold no token", async () => {
  expect(await scanRedis()).toBeGreaterThan(0);

  const secrets = [...(await admin.issuedTokens()), AUTH_SECRET, NEXT_AUTH_SECRET, SERVER_ACTIONS_KEY, CLIENT_SECRET];
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
