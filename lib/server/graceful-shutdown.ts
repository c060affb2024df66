import "server-only";
import type http from "node:http";
import { stopBackupService } from "@/lib/backup/backup-service";
import { closeDatabase } from "@/lib/db/client";
import { markDraining } from "@/lib/health/drain-state";
import { getLogger } from "@/lib/logging/logger";
import { requestsInFlight } from "@/lib/server/http-hooks";
import { closeRedisConnection } from "@/lib/redis/connection";
import { flushUnsavedTokens } from "@/lib/session/unsaved-tokens";
import { flushTraces } from "@/lib/tracing/tracer";

export type ShutdownTimings = {
  /** How long readiness answers 503 while the listener still accepts, so balancers stop sending first. */
  readinessDelayMs: number;
  /** Bound on the whole shutdown, from the signal: exit 1 if requests are still running then. */
  drainMs: number;
};

/**
 * On SIGTERM (or SIGINT): readiness turns 503 at once; after `readinessDelayMs` stop accepting connections, let
 * in-flight requests finish, close every connection that carries none (keep-alive, half-sent), write refreshed
 * tokens this process still holds because the session store could not take them (one last try), send the buffered
 * trace spans, close the Redis connection and the database (which releases the embedded one's folder lock), and
 * exit 0 — or exit 1 once `drainMs` have passed since the signal without getting there (a request still running, or
 * one of those last steps hung).
 *
 * Next's own handler drains without a bound and exits 143, which process managers count as a failure;
 * it is removed here (the equivalent of NEXT_MANUAL_SIG_HANDLE, set after the fact).
 */
export function installGracefulShutdown(servers: Set<http.Server>, timings: ShutdownTimings): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => shutDown(signal, servers, timings));
  }
}

function shutDown(signal: string, servers: Set<http.Server>, { readinessDelayMs, drainMs }: ShutdownTimings): void {
  const logger = getLogger();
  markDraining();
  logger.info({ msg: "shutting down: readiness 503, then no new connections, draining in-flight requests", signal, readinessDelayMs, drainMs });
  const deadline = setTimeout(() => {
    // With no request left, what ran out of time is the last step (tokens, traces, Redis, the database).
    const requests = requestsInFlight();
    const msg = requests > 0 ? "drain deadline passed: exiting with requests still in flight" : "drain deadline passed: exiting before the last writes and closes finished";
    logger.error({ msg, drainMs, requests });
    process.exit(1);
  }, drainMs);
  deadline.unref();
  setTimeout(() => closeListeners(servers), Math.min(readinessDelayMs, drainMs));
}

function closeListeners(servers: Set<http.Server>): void {
  for (const server of servers) server.close();
  // Requests are waited for, not connections: once none is running, a connection still open carries none (a
  // keep-alive one between requests, or one that never sent a whole request) and is closed. Waiting for
  // server.close()'s callback instead let such a connection hold a drained instance until the deadline, and exit 1.
  const timer = setInterval(drainOrExit, 100);
  drainOrExit();

  function drainOrExit() {
    // A keep-alive connection with no request in flight would only end at its idle timeout: close those now, and
    // again each round, as busy ones become idle once their response is sent.
    for (const server of servers) server.closeIdleConnections();
    if (requestsInFlight() > 0) return;
    clearInterval(timer);
    for (const server of servers) server.closeAllConnections();
    getLogger().info({ msg: "drained: exiting" });
    void Promise.all([flushTraces(), flushUnsavedTokens().finally(closeRedisConnection), stopBackupService().then(closeDatabase)]).finally(() => process.exit(0));
  }
}
