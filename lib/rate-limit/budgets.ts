import "server-only";
import { userKeyFor } from "@/lib/auth/user-key";
import { AppError } from "@/lib/errors";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import { recordRateLimitFallback } from "@/lib/metrics/rate-limits";
import { getRedisConnection } from "@/lib/redis/connection";
import type { LimitName } from "@/lib/rate-limit/policies";
import { createRateLimiter, type Decision, type RateLimiter } from "@/lib/rate-limit/rate-limiter";

const LIMITER_KEY = Symbol.for("esign.rateLimiter");
type GlobalWithLimiter = typeof globalThis & { [LIMITER_KEY]?: RateLimiter };

/**
 * The process's one limiter. On globalThis, as the session store is: Next's production build gives proxy, route
 * handlers and pages separate module instances, and separate counters would each allow the whole budget.
 */
export function getRateLimiter(): RateLimiter {
  const g = globalThis as GlobalWithLimiter;
  if (!g[LIMITER_KEY]) {
    const config = getConfig();
    g[LIMITER_KEY] = createRateLimiter({
      budgets: config.rateLimits.budgets,
      redis: config.redisUrl ? getRedisConnection(config.redisUrl).client : undefined,
      log: { warn: (msg) => getLogger().warn({ msg }), info: (msg) => getLogger().info({ msg }) },
      onFallback: recordRateLimitFallback,
    });
  }
  return g[LIMITER_KEY];
}

/**
 * The headers of a refusal: Retry-After, and the RateLimit-Policy and RateLimit fields of
 * draft-ietf-httpapi-ratelimit-headers-10 (a quota `q` per window `w` seconds; `r` remaining, reset in `t` seconds).
 */
export function rateLimitHeaders(decision: Decision): Record<string, string> {
  return {
    "retry-after": String(decision.resetS),
    "ratelimit-policy": `"${decision.name}";q=${decision.limit};w=${decision.windowS}`,
    ratelimit: `"${decision.name}";r=${decision.remaining};t=${decision.resetS}`,
    "cache-control": "no-store",
  };
}

/** The 429 for a spent budget, naming it. */
export function rateLimitedError(decision: Decision): AppError {
  return new AppError(
    "RATE_LIMITED",
    429,
    `Too many requests of this kind (limit "${decision.name}": ${decision.limit} per ${decision.windowS} s). Try again in ${decision.resetS} s.`,
    undefined,
    { rateLimit: { limit: decision.name, retryAfterSeconds: decision.resetS, headers: rateLimitHeaders(decision) } },
  );
}

/**
 * Spends one request of `name`'s budget for `key` (a user key or a client address) in a route handler; throws the 429
 * once it is spent (withErrorHandling answers it and counts it).
 */
export async function spendBudget(name: LimitName, key: string): Promise<void> {
  const decision = await getRateLimiter().consume(name, key);
  if (!decision.allowed) throw rateLimitedError(decision);
}

/** spendBudget keyed by the signed-in user (the same key as their document records), for a route with a session. */
export function spendUserBudget(name: LimitName, subject: string): Promise<void> {
  return spendBudget(name, userKeyFor(getConfig().issuer, subject));
}

/** Gives the user back one request of `name`'s budget, spent for a request whose session turned out to have ended. */
export function refundUserBudget(name: LimitName, subject: string): Promise<void> {
  return getRateLimiter().refund(name, userKeyFor(getConfig().issuer, subject));
}
