import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";

// A real redis-server on loopback, started by this file.
const PORT = Number(process.env.TEST_REDIS_CONFIG_PORT ?? 4621);

let redis: RunningRedis;
let inspector: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startRedisServer(PORT);
  inspector = createClient({ url: redis.url });
  await inspector.connect();
  // The app reads its configuration from the environment once, on first use.
  process.env.AUTH_SECRET = "unit-test-auth-secret-0123456789abcdef0123456789";
  process.env.REDIS_URL = redis.url;
});

afterAll(async () => {
  const { getRedisConnection } = await import("@/lib/redis/connection");
  await getRedisConnection(redis.url).close();
  inspector.destroy();
  await redis.stop();
});

describe("getRefreshStore with REDIS_URL set", () => {
  it("coordinates through Redis: the refresh's outcome is stored there for the grace period", async () => {
    const { getRefreshStore, REPLAY_GRACE_MS } = await import("@/lib/auth/refresh-store");
    expect(await getRefreshStore().run("refresh-token-config-test", async () => "new tokens")).toBe("new tokens");
    const keys: string[] = [];
    for await (const batch of inspector.scanIterator({ COUNT: 100 })) keys.push(...batch);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^esign:refresh:\{[A-Za-z0-9_-]{43}\}:result$/);
    const ttl = await inspector.pTTL(keys[0]!);
    expect(ttl).toBeGreaterThan(REPLAY_GRACE_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(REPLAY_GRACE_MS);
  });
});
