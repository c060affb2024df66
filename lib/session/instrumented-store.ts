import "server-only";
import { recordSessionStoreOperation, type SessionStoreOperation } from "@/lib/metrics/session-store";
import type { SessionStore } from "@/lib/session/session-store";

/** What each store method counts as in the metrics; the refresh lock's calls are not store operations there. */
const METRIC_OPERATION: Partial<Record<keyof SessionStore, SessionStoreOperation>> = {
  get: "get",
  put: "put",
  update: "put",
  touch: "put",
  claimOnce: "put",
  releaseClaim: "delete",
  delete: "delete",
  idsForSubject: "list",
  idsForOidcSid: "list",
  sweep: "sweep",
};

/** The store with each operation timed and counted (esign_session_store_operations_total). */
export function instrumented(store: SessionStore): SessionStore {
  const wrapped = { ...store };
  for (const [method, operation] of Object.entries(METRIC_OPERATION) as [keyof SessionStore, SessionStoreOperation][]) {
    const call = store[method] as (...args: unknown[]) => Promise<unknown>;
    (wrapped as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        const result = await call.apply(store, args);
        recordSessionStoreOperation(store.kind, operation, "ok", (performance.now() - started) / 1000);
        return result;
      } catch (error) {
        recordSessionStoreOperation(store.kind, operation, "error", (performance.now() - started) / 1000);
        throw error;
      }
    };
  }
  return wrapped;
}
