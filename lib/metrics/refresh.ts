import "server-only";
import { counter, histogram } from "@/lib/metrics/registry";

/**
 * How a request that needed new tokens got them (or did not):
 * - refreshed: it redeemed the refresh token itself and got new tokens;
 * - waited: it joined a refresh in flight (in this process or, through Redis, on another instance);
 * - replayed: it got the result of a refresh that had already finished (the replay grace period);
 * - deferred: no new tokens for now (token endpoint unavailable, or gave up waiting); the session is kept;
 * - misconfigured: no new tokens because the token endpoint refused the app's own client (invalid_client or
 *   unauthorized_client: a wrong ESIGN_CLIENT_SECRET, say); the session and its refresh token are kept;
 * - rejected: the token endpoint refused the refresh token (invalid_grant, or a 400 without an error code), or
 *   the refreshed id_token failed its check; the session ends.
 */
export type RefreshOutcome = "refreshed" | "waited" | "replayed" | "deferred" | "misconfigured" | "rejected";

/** Records how one refresh attempt ended. */
export function recordRefresh(outcome: RefreshOutcome): void {
  counter({ name: "esign_token_refreshes_total", help: "Requests that needed new tokens, by how they got them", labelNames: ["outcome"] as const }).inc({
    outcome,
  });
}

/** Records how long a request waited for the cross-instance refresh lock before holding it or reading its result. */
export function recordRefreshLockWait(seconds: number): void {
  histogram({ name: "esign_refresh_lock_wait_seconds", help: "Time spent waiting for the shared refresh lock (Redis)" }).observe(seconds);
}

/**
 * Records a refresh the token endpoint answered with invalid_grant: the refresh token was already used or
 * revoked, which is what reuse detection (a stolen or replayed token) looks like from the client's side.
 */
export function recordReuseSuspect(): void {
  counter({ name: "esign_refresh_reuse_suspects_total", help: "Refreshes refused with invalid_grant (refresh token already used or revoked)" }).inc();
}
