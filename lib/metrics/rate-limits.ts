import "server-only";
import { counter } from "@/lib/metrics/registry";

/**
 * Records one 429: `route` is a bounded route label, `reason` the budget that was spent (lib/rate-limit/policies.ts)
 * or `service` when the service itself answered 429.
 */
export function recordRateLimited(route: string, reason: string): void {
  counter({
    name: "esign_rate_limited_total",
    help: "Requests answered 429, by route and reason (the app's budget that was spent, or service)",
    labelNames: ["route", "reason"] as const,
  }).inc({ route, reason });
}

/** Records one request counted in this instance's memory because the shared store (Redis) failed. */
export function recordRateLimitFallback(): void {
  counter({
    name: "esign_rate_limit_store_fallbacks_total",
    help: "Requests counted against an instance-local budget because Redis did not answer (rate limits fail open)",
  }).inc();
}
