import "server-only";
import { createHash } from "node:crypto";
import { TokenRefreshError } from "@/lib/esign/client";
import { getConfig } from "@/lib/env";
import { getRedisConnection } from "@/lib/redis/connection";
import { createRedisRefreshStore, LOCK_MARGIN_MS } from "@/lib/auth/redis-refresh-store";
import { recordRefresh } from "@/lib/metrics/refresh";

/**
 * Coordinates token refreshes so that one refresh token is redeemed once.
 *
 * The service rotates refresh tokens and revokes the grant when a used one comes back, so every
 * request that arrives with the same (old) refresh token must share one result: those in flight
 * together, and those sent by the browser before it received the rotated cookie. The in-memory store
 * serves a single process; with REDIS_URL set, several instances share one (redis-refresh-store.ts).
 */
export type RefreshStore = {
  run<T>(refreshToken: string, refresh: () => Promise<T>): Promise<T>;
};

/** How long a finished refresh is replayed to requests still carrying the old refresh token. */
export const REPLAY_GRACE_MS = 60_000;

export function createMemoryRefreshStore(graceMs = REPLAY_GRACE_MS): RefreshStore {
  const entries = new Map<string, { promise: Promise<unknown>; expiresAt: number }>();

  function sweep(now: number) {
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  }

  return {
    run<T>(refreshToken: string, refresh: () => Promise<T>): Promise<T> {
      const now = Date.now();
      sweep(now);
      // Keys are hashes so that raw refresh tokens are not kept as map keys longer than needed.
      const key = createHash("sha256").update(refreshToken).digest("base64url");
      const existing = entries.get(key);
      if (existing) {
        recordRefresh(existing.expiresAt === Number.POSITIVE_INFINITY ? "waited" : "replayed");
        return existing.promise as Promise<T>;
      }
      const promise = refresh();
      // Infinity until settled: an in-flight refresh is never swept.
      const entry = { promise, expiresAt: Number.POSITIVE_INFINITY };
      entries.set(key, entry);
      promise.then(
        () => {
          entry.expiresAt = Date.now() + graceMs;
        },
        (error: unknown) => {
          // A transient failure may be retried at once; a rejection is final for this token.
          const transient = error instanceof TokenRefreshError && error.reason === "unavailable";
          if (transient) entries.delete(key);
          else entry.expiresAt = Date.now() + graceMs;
        },
      );
      return promise;
    },
  };
}

const STORE_KEY = Symbol.for("esign.refreshStore");
type GlobalWithStore = typeof globalThis & { [STORE_KEY]?: RefreshStore };

/**
 * The process-wide store: shared through Redis when REDIS_URL is set, else in memory. It lives on
 * globalThis because Next's production build gives the proxy, route handlers and pages separate module
 * instances within one process.
 */
export function getRefreshStore(): RefreshStore {
  const g = globalThis as GlobalWithStore;
  g[STORE_KEY] ??= createConfiguredRefreshStore();
  return g[STORE_KEY];
}

function createConfiguredRefreshStore(): RefreshStore {
  const { redisUrl, authSecrets, requestTimeoutMs } = getConfig();
  if (!redisUrl) return createMemoryRefreshStore();
  return createRedisRefreshStore({
    connection: getRedisConnection(redisUrl),
    // The current secret: during a rotation, instances on different current secrets do not share keys.
    secret: authSecrets[0]!,
    local: createMemoryRefreshStore(),
    lockTtlMs: requestTimeoutMs + LOCK_MARGIN_MS,
    graceMs: REPLAY_GRACE_MS,
  });
}

/** Replaces the process-wide store: a shared one for several instances, or a pass-through in benchmarks. */
export function setRefreshStore(store: RefreshStore): void {
  (globalThis as GlobalWithStore)[STORE_KEY] = store;
}
