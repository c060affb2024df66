import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMIT_NAMES, RATE_LIMIT_DEFAULTS, type Budget, type LimitName } from "@/lib/rate-limit/policies";
import { createRateLimiter } from "@/lib/rate-limit/rate-limiter";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";

// A real redis-server on loopback, started by this file (Debian package; a missing binary fails the run).
const REDIS_PORT = Number(process.env.TEST_RATE_LIMIT_REDIS_PORT ?? 4730);

/** Every budget as in production, but "documents-create" small enough to spend in a test. */
function budgets(create: Budget): Record<LimitName, Budget> {
  const all = Object.fromEntries(LIMIT_NAMES.map((name) => [name, { points: RATE_LIMIT_DEFAULTS[name].points, durationS: RATE_LIMIT_DEFAULTS[name].durationS }]));
  return { ...all, "documents-create": create } as Record<LimitName, Budget>;
}

function recordingLog() {
  const lines: { level: "warn" | "info"; msg: string }[] = [];
  return { lines, log: { warn: (msg: string) => lines.push({ level: "warn", msg }), info: (msg: string) => lines.push({ level: "info", msg }) } };
}

let unique = 0;
const key = (prefix: string) => `${prefix}-${++unique}-${Math.random().toString(36).slice(2)}`;

async function spend(limiter: ReturnType<typeof createRateLimiter>, name: LimitName, who: string, times: number) {
  const decisions = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.consume(name, who));
  return decisions;
}

describe("the rate limiter in memory", () => {
  it("allows a budget's requests, then refuses with the time to its reset, per key and per budget", async () => {
    const { lines, log } = recordingLog();
    const limiter = createRateLimiter({ budgets: budgets({ points: 3, durationS: 60 }), log });
    const alice = key("alice");
    const decisions = await spend(limiter, "documents-create", alice, 4);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    const refused = decisions[3]!;
    expect(refused).toMatchObject({ name: "documents-create", limit: 3, windowS: 60 });
    expect(refused.resetS).toBeGreaterThanOrEqual(1);
    expect(refused.resetS).toBeLessThanOrEqual(60);
    // Another user, and another budget of the same user, are untouched.
    expect((await limiter.consume("documents-create", key("bob"))).allowed).toBe(true);
    expect((await limiter.consume("documents-list", alice)).allowed).toBe(true);
    expect(lines).toEqual([]);
  });

  it("gives the budget back when its window ends", async () => {
    const limiter = createRateLimiter({ budgets: budgets({ points: 1, durationS: 1 }), log: recordingLog().log });
    const who = key("window");
    expect((await spend(limiter, "documents-create", who, 2)).map((d) => d.allowed)).toEqual([true, false]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await limiter.consume("documents-create", who)).allowed).toBe(true);
  });

  it("takes back one spent request with refund, for that key and budget only", async () => {
    const limiter = createRateLimiter({ budgets: budgets({ points: 2, durationS: 60 }), log: recordingLog().log });
    const who = key("refund");
    expect((await spend(limiter, "documents-create", who, 2)).map((d) => d.allowed)).toEqual([true, true]);
    await limiter.refund("documents-create", who);
    expect((await spend(limiter, "documents-create", who, 2)).map((d) => d.allowed)).toEqual([true, false]);
  });
});

describe("the rate limiter on Redis", () => {
  let redis: RunningRedis;
  const clients: { isOpen: boolean; destroy(): void }[] = [];
  const connect = async () => {
    // As lib/redis/connection.ts configures it: no offline queue, quick reconnects.
    const client = createClient({ url: redis.url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 100, connectTimeout: 1000 } });
    client.on("error", () => {});
    await client.connect();
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    redis = await startRedisServer(REDIS_PORT);
  });

  afterAll(async () => {
    for (const client of clients) if (client.isOpen) client.destroy();
    await redis.stop();
  });

  it("shares one budget between instances, in keys that expire with the window", async () => {
    const client = await connect();
    const a = createRateLimiter({ budgets: budgets({ points: 3, durationS: 60 }), redis: await connect(), log: recordingLog().log });
    const b = createRateLimiter({ budgets: budgets({ points: 3, durationS: 60 }), redis: await connect(), log: recordingLog().log });
    const who = key("shared");
    expect((await spend(a, "documents-create", who, 2)).map((d) => d.allowed)).toEqual([true, true]);
    expect((await b.consume("documents-create", who)).allowed).toBe(true);
    // Each instance alone has spent less than the budget; together they have spent all of it.
    expect((await a.consume("documents-create", who)).allowed).toBe(false);
    expect((await b.consume("documents-create", who)).allowed).toBe(false);
    const keys = await client.keys(`esign:rl:documents-create:${who}`);
    expect(keys).toHaveLength(1);
    const ttl = await client.pTTL(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("takes back one spent request with refund, in the shared budget", async () => {
    const a = createRateLimiter({ budgets: budgets({ points: 2, durationS: 60 }), redis: await connect(), log: recordingLog().log });
    const b = createRateLimiter({ budgets: budgets({ points: 2, durationS: 60 }), redis: await connect(), log: recordingLog().log });
    const who = key("shared-refund");
    expect((await spend(a, "documents-create", who, 2)).map((d) => d.allowed)).toEqual([true, true]);
    await a.refund("documents-create", who);
    expect((await spend(b, "documents-create", who, 2)).map((d) => d.allowed)).toEqual([true, false]);
  });

  it("fails open onto memory when Redis is killed, says so once, counts each request, and says when it is back", async () => {
    const { lines, log } = recordingLog();
    let fallbacks = 0;
    const limiter = createRateLimiter({ budgets: budgets({ points: 5, durationS: 60 }), redis: await connect(), log, onFallback: () => fallbacks++ });
    const who = key("outage");
    expect((await spend(limiter, "documents-create", who, 2)).every((d) => d.allowed)).toBe(true);
    expect(fallbacks).toBe(0);

    redis.child.kill("SIGKILL");
    await new Promise((resolve) => redis.child.once("exit", resolve));
    // Redis is gone: requests go on (failing open), counted in this instance's memory — which still has a budget.
    const during = await spend(limiter, "documents-create", who, 7);
    expect(during.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(fallbacks).toBe(7);
    expect(lines.filter((l) => l.level === "warn")).toHaveLength(1);
    expect(lines[0]!.msg).toMatch(/^rate limits: Redis is unavailable \(.+\); counting in each instance's memory/);

    redis = await startRedisServer(REDIS_PORT);
    await expect
      .poll(async () => {
        await limiter.consume("documents-list", key("after"));
        return lines.some((l) => l.level === "info" && /Redis answers again/.test(l.msg));
      }, { timeout: 10_000, interval: 200 })
      .toBe(true);
    expect(lines.filter((l) => l.level === "warn")).toHaveLength(1);
    // Back on Redis, which came back empty: the shared budget starts afresh.
    expect((await limiter.consume("documents-create", who)).allowed).toBe(true);
  });

  it("does not wait for a stalled Redis longer than its deadline", async () => {
    const { lines, log } = recordingLog();
    let fallbacks = 0;
    const limiter = createRateLimiter({ budgets: budgets({ points: 5, durationS: 60 }), redis: await connect(), redisDeadlineMs: 200, log, onFallback: () => fallbacks++ });
    const who = key("stall");
    expect((await limiter.consume("documents-create", who)).allowed).toBe(true);
    process.kill(redis.child.pid!, "SIGSTOP");
    try {
      const decision = await limiter.consume("documents-create", who);
      expect(decision.allowed).toBe(true);
      expect(fallbacks).toBe(1);
      expect(lines.filter((l) => l.level === "warn")).toHaveLength(1);
      expect(lines[0]!.msg).toContain("no answer within 200 ms");
    } finally {
      process.kill(redis.child.pid!, "SIGCONT");
    }
  });
});
