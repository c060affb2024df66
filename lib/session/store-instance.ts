import "server-only";
import { getConfig } from "@/lib/env";
import { getRedisConnection } from "@/lib/redis/connection";
import { createFileSessionStore } from "@/lib/session/file-session-store";
import { instrumented } from "@/lib/session/instrumented-store";
import { createRedisSessionStore } from "@/lib/session/redis-session-store";
import { startSweeper } from "@/lib/session/session-sweeper";
import type { SessionStore } from "@/lib/session/session-store";

const STORE_KEY = Symbol.for("esign.sessionStore");
type GlobalWithStore = typeof globalThis & { [STORE_KEY]?: SessionStore };

/**
 * The process-wide session store, created at first use with its sweeper: Redis with REDIS_URL, else the embedded
 * file store. On globalThis because Next's production build gives proxy, route handlers and pages separate
 * module instances in one process.
 */
export function getSessionStore(): SessionStore {
  const g = globalThis as GlobalWithStore;
  if (g[STORE_KEY]) return g[STORE_KEY];
  const { redisUrl, sessions: limits } = getConfig();
  const store = instrumented(redisUrl ? createRedisSessionStore(getRedisConnection(redisUrl), limits.maxAgeMs) : createFileSessionStore(limits.storeDir));
  startSweeper(store);
  g[STORE_KEY] = store;
  return store;
}
