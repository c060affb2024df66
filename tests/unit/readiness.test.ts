import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pingRedis } from "@/lib/health/redis-ping";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";

const REDIS_PORT = Number(process.env.TEST_REDIS_PORT ?? 4680);
const HUNG_PORT = Number(process.env.TEST_HUNG_API_PORT ?? 4681);

describe("Redis readiness check (PING over a plain socket)", () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedisServer(REDIS_PORT);
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("resolves when a real redis-server answers PONG", async () => {
    await expect(pingRedis(redis.url, AbortSignal.timeout(2_000))).resolves.toBeUndefined();
  });

  it("reports a refused connection by its code, never the URL and its password", async () => {
    const error = await pingRedis("redis://:hunter2-password@127.0.0.1:1", AbortSignal.timeout(2_000)).catch((e: Error) => e);
    expect((error as Error).message).toBe("unreachable (ECONNREFUSED)");
  });

  it("reports Redis refusing the credentials", async () => {
    const error = await pingRedis(`redis://:wrong-password@127.0.0.1:${REDIS_PORT}`, AbortSignal.timeout(2_000)).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^refused: /);
    expect((error as Error).message).not.toContain("wrong-password");
  });
});

describe("readiness over HTTP dependencies", () => {
  let hung: Server;
  beforeAll(async () => {
    // Accepts connections and never answers: the case a deadline exists for.
    hung = createServer(() => {});
    await new Promise<void>((resolve) => hung.listen(HUNG_PORT, "127.0.0.1", resolve));
    process.env.AUTH_SECRET = "r".repeat(32);
    process.env.ESIGN_AUTH_URL = `http://127.0.0.1:${HUNG_PORT}`;
    process.env.ESIGN_API_URL = `http://127.0.0.1:${HUNG_PORT}`;
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
