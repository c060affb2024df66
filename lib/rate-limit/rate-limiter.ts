import "server-only";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { LIMIT_NAMES, type Budget, type LimitName } from "@/lib/rate-limit/policies";

/** What one request's spending of a budget came to. */
export type Decision = {
  name: LimitName;
  allowed: boolean;
  /** The budget's size and window. */
  limit: number;
  windowS: number;
  /** Requests left in the current window (0 once refused). */
  remaining: number;
  /** Seconds until the window ends and the budget is whole again (at least 1). */
  resetS: number;
};

export type RateLimiter = {
  /** Spends one request of `name`'s budget for `key` (a user key or a client address). Never throws. */
  consume(name: LimitName, key: string): Promise<Decision>;
  /**
   * Gives back one request spent with `consume`, for a request that turned out not to be the key's (its session had
   * ended). Best effort, never throws: it goes where a spend would go now (Redis, or memory while Redis fails).
   */
  refund(name: LimitName, key: string): Promise<void>;
};

type Log = { warn(message: string): void; info(message: string): void };

/** A Redis store client as node-redis gives it (rate-limiter-flexible detects node-redis v4+ from it). */
type RedisStoreClient = { isReady: boolean } & object;

export type RateLimiterOptions = {
  budgets: Record<LimitName, Budget>;
  /** Shared budgets across instances; without it each process counts in its own memory. */
  redis?: RedisStoreClient;
  /**
   * How long a spend may wait for Redis before it is counted in memory instead. A killed Redis fails at once
   * (node-redis is not ready); a stalled one would otherwise hold every request.
   */
  redisDeadlineMs?: number;
  log: Log;
  /** Counts each request counted in memory because Redis failed (a metric). */
  onFallback?: () => void;
};

/** Well under a request's budget, and far above Redis's sub-millisecond answer on a LAN. */
export const DEFAULT_REDIS_DEADLINE_MS = 300;

const KEY_PREFIX = "esign:rl";

function decisionOf(name: LimitName, budget: Budget, res: RateLimiterRes, allowed: boolean): Decision {
  return {
    name,
    allowed,
    limit: budget.points,
    windowS: budget.durationS,
    remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
    resetS: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

/**
 * Budgets per user and per client address, counted by rate-limiter-flexible: in this process's memory, or in Redis
 * when one is given, so that every instance spends from one budget. While Redis fails, requests are counted in a
 * memory limiter (the insurance) — each instance then allows the whole budget on its own: failing open, never
 * refusing honest users for an outage of ours. The outage is logged once when it starts and once when it ends, and
 * each request so counted is reported through `onFallback`.
 *
 * The insurance is applied here rather than through the library's `insuranceLimiter` option, because the library
 * gives no sign of having used it (no log line, no metric) and sets no deadline on a stalled Redis.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { budgets, redis, log, onFallback = () => {} } = options;
  const deadlineMs = options.redisDeadlineMs ?? DEFAULT_REDIS_DEADLINE_MS;
  const memory = new Map<LimitName, RateLimiterAbstract>();
  const shared = new Map<LimitName, RateLimiterAbstract>();
  for (const name of LIMIT_NAMES) {
    const { points, durationS } = budgets[name];
    const keyPrefix = `${KEY_PREFIX}:${name}`;
    memory.set(name, new RateLimiterMemory({ points, duration: durationS, keyPrefix }));
    if (redis) {
      shared.set(
        name,
        new RateLimiterRedis({ storeClient: redis, useRedisPackage: true, rejectIfRedisNotReady: true, points, duration: durationS, keyPrefix }),
      );
    }
  }
  let redisFailing = false;

  const spend = async (limiter: RateLimiterAbstract, name: LimitName, key: string): Promise<Decision> => {
    try {
      return decisionOf(name, budgets[name], await limiter.consume(key), true);
    } catch (error) {
      // The library rejects with its result when the budget is spent, and with an Error when the store failed.
      if (error instanceof RateLimiterRes) return decisionOf(name, budgets[name], error, false);
      throw error;
    }
  };

  return {
    async consume(name, key) {
      const limiter = shared.get(name);
      if (limiter) {
        try {
          const decision = await withDeadline(spend(limiter, name, key), deadlineMs);
          if (redisFailing) {
            redisFailing = false;
            log.info("rate limits: Redis answers again; every instance spends from the shared budgets again");
          }
          return decision;
        } catch (error) {
          if (!redisFailing) {
            redisFailing = true;
            const reason = error instanceof Error ? error.message : String(error);
            log.warn(
              `rate limits: Redis is unavailable (${reason}); counting in each instance's memory until it returns, so each instance allows the whole budget (failing open)`,
            );
          }
          onFallback();
        }
      }
      return spend(memory.get(name)!, name, key);
    },
    async refund(name, key) {
      const limiter = shared.get(name);
      if (limiter && !redisFailing) {
        const refunded = await withDeadline(limiter.reward(key, 1), deadlineMs).then(
          () => true,
          () => false,
        );
        if (refunded) return;
      }
      await memory.get(name)!.reward(key, 1);
    },
  };
}

class DeadlineError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

function withDeadline<T>(operation: Promise<T>, ms: number): Promise<T> {
  // A command that settles after the deadline must not become an unhandled rejection.
  operation.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(ms)), ms);
  });
  return Promise.race([operation, deadline]).finally(() => clearTimeout(timer));
}
