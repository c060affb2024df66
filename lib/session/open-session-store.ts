import "server-only";
import { getConfig } from "@/lib/env";
import { registerDependencyProbe } from "@/lib/health/dependency-probes";
import { registerActiveSessionsCollector } from "@/lib/metrics/session-store";
import { storeName } from "@/lib/session/session-keys";
import { lockStoreDir } from "@/lib/session/store-dir-lock";
import { getSessionStore } from "@/lib/session/store-instance";

/**
 * Readies the session store at server start. The embedded store's folder is locked to this process (a second
 * server on it throws StoreDirLockedError, see store-dir-lock.ts) and its index built (a failed scan is tried
 * again at the next use). Redis is left to connect at first use, as before: connecting while the server loads
 * its modules let the 1 s connect timeout fire on a busy event loop (a spurious outage warning). Either store
 * joins the dependency probe round as `session-store` (readiness's body and metrics, never readiness itself).
 */
export function openSessionStore(): void {
  const { redisUrl, sessions } = getConfig();
  const probeId = storeName("session", "dependency-probe");
  registerDependencyProbe("session-store", async () => {
    await getSessionStore().get(probeId);
  });
  if (redisUrl) return;
  lockStoreDir(sessions.storeDir);
  // Builds the index now rather than at the first signed-in request; a failure is retried then.
  void getSessionStore()
    .get(probeId)
    .catch(() => {});
}

/** Reports the store's active sessions at each scrape (with METRICS_PORT). */
export function monitorSessionStore(): void {
  const store = getSessionStore();
  // A scrape must not fail while the store is down (the store's own metrics say so): the last count stands.
  let lastCount = 0;
  registerActiveSessionsCollector(store.kind, async () => {
    lastCount = await store.countActive().catch(() => lastCount);
    return lastCount;
  });
}
