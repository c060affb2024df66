import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";

const REDIS_PORT = Number(process.env.TEST_REDIS_PORT ?? 4680);
const HUNG_PORT = Number(process.env.TEST_HUNG_API_PORT ?? 4681);

// One configuration for the whole file (getConfig() caches it): auth server and API on the hung port.
process.env.AUTH_SECRET = "r".repeat(32);
process.env.ESIGN_AUTH_URL = `http://127.0.0.1:${HUNG_PORT}`;
process.env.ESIGN_API_URL = `http://127.0.0.1:${HUNG_PORT}`;

describe("readiness with REDIS_URL set", () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedisServer(REDIS_PORT);
    process.env.REDIS_URL = redis.url;
  });
  afterAll(async () => {
    await redis?.stop();
    delete process.env.REDIS_URL;
  });

  it("reports redis ok while a real redis-server answers PING, and fail once it is gone", async () => {
    const { checkReadiness } = await import("@/lib/health/readiness");
    const redisCheck = async () => (await checkReadiness()).checks.find((c) => c.name === "redis");
    expect(await redisCheck()).toMatchObject({ name: "redis", state: "ok" });
    await redis.stop();
    const down = await redisCheck();
    expect(down).toMatchObject({ name: "redis", state: "fail" });
    expect(down!.latencyMs).toBeLessThan(2_000);
    expect(JSON.stringify(down)).not.toContain(String(REDIS_PORT));
  });
});

describe("readiness over HTTP dependencies", () => {
  let hung: Server;
  beforeAll(async () => {
    // Accepts connections and never answers: the case a deadline exists for.
    hung = createServer(() => {});
    await new Promise<void>((resolve) => hung.listen(HUNG_PORT, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    hung.closeAllConnections();
    await new Promise((resolve) => hung.close(resolve));
  });

  it("fails a hung dependency at the 2 s deadline and says so, without its URL", async () => {
    const { checkReadiness } = await import("@/lib/health/readiness");
    const started = Date.now();
    const readiness = await checkReadiness();
    const elapsed = Date.now() - started;
    expect(readiness.status).toBe("not_ready");
    expect(readiness.checks.map((c) => [c.name, c.state])).toEqual([
      ["config", "ok"],
      ["auth", "fail"],
      ["api", "fail"],
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(3_000);
    expect(JSON.stringify(readiness)).not.toContain(String(HUNG_PORT));
    expect(readiness.checks[1]!.detail).toMatch(/no answer/);
  });
});
