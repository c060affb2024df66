import "server-only";
import { counter, gauge, histogram } from "@/lib/metrics/registry";

export type SessionStoreKind = "file" | "redis";
export type SessionStoreOperation = "get" | "put" | "delete" | "list" | "sweep";

/** Records one operation of the server-side session store. */
export function recordSessionStoreOperation(store: SessionStoreKind, operation: SessionStoreOperation, outcome: "ok" | "error", seconds: number): void {
  counter({
    name: "esign_session_store_operations_total",
    help: "Session store operations by store, operation and outcome",
    labelNames: ["store", "operation", "outcome"] as const,
  }).inc({ store, operation, outcome });
  histogram({
    name: "esign_session_store_operation_duration_seconds",
    help: "Session store operation latency",
    labelNames: ["store", "operation"] as const,
  }).observe({ store, operation }, seconds);
}

/**
 * A stored session that did not open, so it ended: `unknown-key` (sealed under an AUTH_SECRET no longer listed)
 * or `altered` (tampered with, or copied under another id).
 */
export function recordUnreadableSession(reason: "unknown-key" | "altered"): void {
  counter({
    name: "esign_sessions_unreadable_total",
    help: "Stored sessions that did not open (and so ended), by reason: unknown-key (AUTH_SECRET no longer listed) or altered",
    labelNames: ["reason"] as const,
  }).inc({ reason });
}

type CountSessions = () => number | Promise<number>;

const COLLECTORS_KEY = Symbol.for("esign.activeSessionCollectors");
function activeSessionCollectors(): Map<SessionStoreKind, CountSessions> {
  const g = globalThis as typeof globalThis & { [COLLECTORS_KEY]?: Map<SessionStoreKind, CountSessions> };
  g[COLLECTORS_KEY] ??= new Map();
  return g[COLLECTORS_KEY];
}

// A store either sets its count as it changes, or registers a collector that counts at scrape time.
const activeSessions = () =>
  gauge({
    name: "esign_active_sessions",
    help: "Unexpired sessions held by the session store",
    labelNames: ["store"] as const,
    async collect() {
      for (const [store, count] of activeSessionCollectors()) this.set({ store }, await count());
    },
  });

/** Sets the number of active sessions a store holds (for stores that keep a count). */
export function setActiveSessions(store: SessionStoreKind, count: number): void {
  activeSessions().set({ store }, count);
}

/**
 * Counts a store's active sessions at scrape time instead (for stores that must look to know). `count` runs on
 * every scrape, so it should be cheap or cached. A later registration for the same store replaces the earlier one.
 */
export function registerActiveSessionsCollector(store: SessionStoreKind, count: CountSessions): void {
  activeSessionCollectors().set(store, count);
  activeSessions();
}
