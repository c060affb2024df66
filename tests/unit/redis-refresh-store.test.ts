import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { createMemoryRefreshStore, type RefreshStore } from "@/lib/auth/refresh-store";
import { createRedisRefreshStore } from "@/lib/auth/redis-refresh-store";
import { connectRedis, type RedisConnection } from "@/lib/redis/connection";
import { TokenRefreshError } from "@/lib/esign/client";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";

// A real redis-server on loopback, started by this file (Debian package; a missing binary fails the run).
const PORT = Number(process.env.TEST_REDIS_PORT ?? 4620);
const SECRET = "unit-test-auth-secret-0123456789abcdef0123456789";
const LOCK_TTL_MS = 400;
const GRACE_MS = 1_000;

let redis: RunningRedis;
let inspector: ReturnType<typeof createClient>;
const opened: RedisConnection[] = [];

type Logged = { warn: string[]; info: string[] };

/** One "app instance": its own Redis connection and its own in-process map, as a separate process would have. */
function instance(overrides: { lockTtlMs?: number; graceMs?: number } = {}): { store: RefreshStore; log: Logged; connection: RedisConnection } {
  const log: Logged = { warn: [], info: [] };
  const connection = connectRedis(redis.url, { warn: (m) => log.warn.push(m), info: (m) => log.info.push(m) });
  opened.push(connection);
  const graceMs = overrides.graceMs ?? GRACE_MS;
  const store = createRedisRefreshStore({
    connection,
    secret: SECRET,
    local: createMemoryRefreshStore(graceMs),
    lockTtlMs: overrides.lockTtlMs ?? LOCK_TTL_MS,
    graceMs,
  });
  return { store, log, connection };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let tokenCounter = 0;
const freshToken = () => `refresh-token-${process.pid}-${++tokenCounter}-${Math.random().toString(36).slice(2)}`;

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

async function allKeysAndValues(): Promise<Array<{ key: string; value: string | null; pttl: number }>> {
  const keys: string[] = [];
  for await (const batch of inspector.scanIterator({ COUNT: 100 })) keys.push(...batch);
  return Promise.all(keys.map(async (key) => ({ key, value: await inspector.get(key), pttl: await inspector.pTTL(key) })));
}

beforeAll(async () => {
  redis = await startRedisServer(PORT);
  inspector = createClient({ url: redis.url });
  inspector.on("error", () => {}); // it rides through the restart in the outage test
  await inspector.connect();
});

afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
  if (redis.child.exitCode === null && redis.child.signalCode === null && inspector.isReady) await inspector.flushAll();
});

afterAll(async () => {
  inspector.destroy();
  await redis.stop();
});

describe("createRedisRefreshStore (real redis-server)", () => {
  it("makes one token call for twenty concurrent requests spread over two instances", async () => {
    const [a, b] = [instance(), instance()];
    const token = freshToken();
    let calls = 0;
    const refresh = async () => {
      calls++;
      await sleep(100);
      return { accessToken: `access-${calls}`, refreshToken: `rotated-${calls}` };
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).store.run(token, refresh)));
    expect(calls).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(results[0]).toEqual({ accessToken: "access-1", refreshToken: "rotated-1" });
  });

  it("replays a finished refresh to the other instance within the grace period", async () => {
    const [a, b] = [instance(), instance()];
    const token = freshToken();
    let calls = 0;
    await a.store.run(token, async () => ++calls);
    await sleep(50);
    expect(await b.store.run(token, async () => ++calls)).toBe(1);
    expect(calls).toBe(1);
  });

  it("replays a refusal to the other instance without calling the token endpoint again", async () => {
    const [a, b] = [instance(), instance()];
    const token = freshToken();
    await expect(a.store.run(token, async () => Promise.reject(new TokenRefreshError("rejected", "refresh token already used")))).rejects.toThrow(
      "refresh token already used",
    );
    let calls = 0;
    const replayed = await b.store.run(token, async () => ++calls).catch((error: unknown) => error);
    expect(replayed).toBeInstanceOf(TokenRefreshError);
    expect((replayed as TokenRefreshError).reason).toBe("rejected");
    expect(calls).toBe(0);
  });

  it("does not store a transient failure: the other instance tries again at once", async () => {
    const [a, b] = [instance(), instance()];
    const token = freshToken();
    await expect(a.store.run(token, async () => Promise.reject(new TokenRefreshError("unavailable", "token endpoint answered 503")))).rejects.toThrow("503");
    expect(await b.store.run(token, async () => "second try")).toBe("second try");
    // The lock was released, not left to expire: nothing but the second try's result is in Redis.
    expect((await allKeysAndValues()).map((e) => e.key.endsWith(":result"))).toEqual([true]);
  });

  it("lets a waiter take over once a dead holder's lock expires, and refresh exactly once", async () => {
    const [holder, waiter] = [instance(), instance()];
    const token = freshToken();
    let calls = 0;
    // The holder takes the lock and never finishes (its process died mid-call).
    void holder.store.run(token, () => {
      calls++;
      return new Promise<never>(() => {});
    });
    await waitUntil(() => calls === 1);
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 5 }, () => waiter.store.run(token, async () => `taken over ${++calls}`)));
    const waited = Date.now() - started;
    expect(results).toEqual(Array(5).fill("taken over 2"));
    expect(calls).toBe(2);
    // It waited for the lock to expire, and not much longer.
    expect(waited).toBeGreaterThanOrEqual(LOCK_TTL_MS - 50);
    expect(waited).toBeLessThan(LOCK_TTL_MS + 500);
  });

  it("stores nothing that reveals a token, and every key expires after the grace period", async () => {
    const [a, b] = [instance({ graceMs: 500 }), instance({ graceMs: 500 })];
    const token = freshToken();
    const issued = { accessToken: "access-token-secret-value", refreshToken: "rotated-refresh-token-value", idToken: "id-token-value" };
    await Promise.all([a.store.run(token, async () => issued), b.store.run(token, async () => issued)]);
    const entries = await allKeysAndValues();
    expect(entries.length).toBeGreaterThan(0);
    const everything = JSON.stringify(entries);
    for (const secret of [token, issued.accessToken, issued.refreshToken, issued.idToken, SECRET]) expect(everything).not.toContain(secret);
    for (const entry of entries) {
      expect(entry.pttl, entry.key).toBeGreaterThan(0);
      expect(entry.pttl, entry.key).toBeLessThanOrEqual(500);
    }
    await sleep(600);
    expect(await inspector.dbSize()).toBe(0);
  });

  it("falls back to in-process coordination while Redis is down, warns once, and resumes when it returns", async () => {
    const [a, b] = [instance(), instance()];
    await a.store.run(freshToken(), async () => "warm-up");
    await b.store.run(freshToken(), async () => "warm-up");
    await redis.stop(1_000);
    await waitUntil(() => a.log.warn.length > 0 && b.log.warn.length > 0);

    // Down: each instance still sends one call per token, fast, and neither logs again.
    for (let round = 0; round < 3; round++) {
      const token = freshToken();
      let calls = 0;
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: 10 }, () => a.store.run(token, async () => ++calls)));
      expect(Date.now() - started).toBeLessThan(700);
      expect(results).toEqual(Array(10).fill(1));
    }
    expect(a.log.warn).toHaveLength(1);
    expect(b.log.warn).toHaveLength(1);
    expect(a.log.warn[0]).toContain("is unavailable");
    expect(a.log.warn[0]).not.toContain("redis://");

    redis = await startRedisServer(PORT);
    await inspector.connect().catch(() => {});
    await waitUntil(() => a.connection.available && b.connection.available);
    expect(a.log.info).toHaveLength(1);

    // Back: coordination across instances again.
    const token = freshToken();
    let calls = 0;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).store.run(token, async () => ++calls)));
    expect(calls).toBe(1);
    expect(results).toEqual(Array(10).fill(1));
  });

  it("does not wait on a stalled Redis for more than a few hundred milliseconds", async () => {
    const a = instance();
    await a.store.run(freshToken(), async () => "warm-up");
    process.kill(-redis.child.pid!, "SIGSTOP");
    try {
      const started = Date.now();
      expect(await a.store.run(freshToken(), async () => "refreshed alone")).toBe("refreshed alone");
      // One timed-out lock attempt plus one timed-out attempt to publish the result.
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(a.log.warn).toHaveLength(1);
    } finally {
      process.kill(-redis.child.pid!, "SIGCONT");
    }
    // The next refresh goes through Redis again and ends the outage.
    const b = instance();
    const token = freshToken();
    let calls = 0;
    expect(await Promise.all([a.store.run(token, async () => ++calls), b.store.run(token, async () => ++calls)])).toEqual([1, 1]);
    expect(a.connection.available).toBe(true);
    expect(a.log.info).toHaveLength(1);
  });
});
