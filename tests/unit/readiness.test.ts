import { createServer, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";

const REDIS_PORT = Number(process.env.TEST_REDIS_PORT ?? 4680);
const HUNG_PORT = Number(process.env.TEST_HUNG_API_PORT ?? 4681);
// Nothing listens there: the document records' database is down (refused at once).
const DEAD_DATABASE_PORT = Number(process.env.TEST_DEAD_DATABASE_PORT ?? 4703);

// One configuration for the whole file (getConfig() caches it): auth server and API on the hung port.
process.env.AUTH_SECRET = "r".repeat(32);
process.env.ESIGN_AUTH_URL = `http://127.0.0.1:${HUNG_PORT}`;
process.env.ESIGN_API_URL = `http://127.0.0.1:${HUNG_PORT}`;
process.env.DATABASE_URL = `postgresql://app:database-password@127.0.0.1:${DEAD_DATABASE_PORT}/app`;

const { checkReadiness } = await import("@/lib/health/readiness");
const { dependencyStates, probeDependenciesIfStale, PROBE_INTERVAL_MS } = await import("@/lib/health/dependency-probes");
const { markDraining } = await import("@/lib/health/drain-state");

/** Moves the clock past the probe interval, so the next look starts a new round. */
const afterProbeInterval = () => vi.setSystemTime(Date.now() + PROBE_INTERVAL_MS + 1);

describe("readiness and dependency probes", () => {
  let hung: Server;
  let redis: RunningRedis;
  let calls = 0;

  beforeAll(async () => {
    // Accepts connections and never answers: the case a deadline exists for. Counts the upstream calls made.
    hung = createServer(() => void (calls += 1));
    await new Promise<void>((resolve) => hung.listen(HUNG_PORT, "127.0.0.1", resolve));
    redis = await startRedisServer(REDIS_PORT);
    process.env.REDIS_URL = redis.url;
    vi.useFakeTimers({ toFake: ["Date"] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    hung.closeAllConnections();
    await new Promise((resolve) => hung.close(resolve));
    await redis?.stop();
    delete process.env.REDIS_URL;
  });
  afterEach(() => afterProbeInterval());

  it("is ready while the auth server and API hang and the database is down, and reports them failing without their URL", async () => {
    const first = checkReadiness();
    expect(first.status).toBe("ready");
    // Nothing probed yet: the answer does not wait for the round it starts.
    expect(first.dependencies.map((d) => [d.name, d.state])).toEqual([
      ["auth", "unknown"],
      ["api", "unknown"],
      ["redis", "unknown"],
      ["database", "unknown"],
    ]);
    await probeDependenciesIfStale();
    const after = checkReadiness();
    expect(after.status).toBe("ready");
    expect(after.checks).toEqual([
      { name: "config", state: "ok" },
      { name: "draining", state: "ok" },
    ]);
    expect(after.dependencies.map((d) => [d.name, d.state])).toEqual([
      ["auth", "fail"],
      ["api", "fail"],
      ["redis", "ok"],
      ["database", "fail"],
    ]);
    expect(after.dependencies[0]!.detail).toMatch(/no answer/);
    expect(after.dependencies[3]!.detail).toBe("unreachable (ECONNREFUSED)");
    expect(JSON.stringify(after)).not.toContain(String(HUNG_PORT));
    expect(JSON.stringify(after)).not.toContain(String(REDIS_PORT));
    expect(JSON.stringify(after)).not.toContain(String(DEAD_DATABASE_PORT));
    expect(JSON.stringify(after)).not.toContain("database-password");
  });

  it("makes one upstream call per dependency per interval, however many probes arrive", async () => {
    const before = calls;
    const rounds = await Promise.all(Array.from({ length: 1_000 }, () => (dependencyStates(), probeDependenciesIfStale())));
    expect(rounds).toHaveLength(1_000);
    // auth and API share the hung server: one call each.
    expect(calls - before).toBe(2);
    for (let i = 0; i < 100; i++) dependencyStates();
    await probeDependenciesIfStale();
    expect(calls - before).toBe(2);
  });

  it("reports redis failing once the redis-server is gone, and readiness stays 200", async () => {
    await redis.stop();
    await probeDependenciesIfStale();
    const readiness = checkReadiness();
    expect(readiness.status).toBe("ready");
    expect(readiness.dependencies.find((d) => d.name === "redis")).toMatchObject({ state: "fail" });
  });

  it("answers draining (503 at the route) once shutdown has begun", () => {
    markDraining();
    const readiness = checkReadiness();
    expect(readiness.status).toBe("draining");
    expect(readiness.checks.find((c) => c.name === "draining")).toMatchObject({ state: "fail" });
  });
});
