import "server-only";
import { getLogger } from "@/lib/logging/logger";
import type { SessionStore } from "@/lib/session/session-store";

const SWEEP_INTERVAL_MS = 60_000;

/** Drops the store's expired sessions and claims every minute, for the life of the process. */
export function startSweeper(store: SessionStore): void {
  const sweeper = setInterval(() => {
    store.sweep().catch((error: unknown) => getLogger().warn({ msg: `session sweep failed: ${error instanceof Error ? error.message : String(error)}` }));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
}
