import "server-only";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import { getRedisConnection } from "@/lib/redis/connection";
import { createSealer, type Sealer } from "@/lib/session/seal";
import { newSessionHandle, storeName } from "@/lib/session/session-keys";
import { sessionExpiresAt, type SessionRecord } from "@/lib/session/session-record";
import { createFileSessionStore } from "@/lib/session/file-session-store";
import { createRedisSessionStore } from "@/lib/session/redis-session-store";
import type { SessionEnvelope, SessionStore } from "@/lib/session/session-store";
import { registerDependencyProbe } from "@/lib/health/dependency-probes";
import { recordSessionStoreOperation, registerActiveSessionsCollector, type SessionStoreOperation } from "@/lib/metrics/session-store";

/**
 * A session as read from the store: its store id, its decrypted record, the envelope it came in, and whether only
 * a previous AUTH_SECRET opened it (it is then sealed again under the current one, see session-refresh.ts).
 */
export type StoredSession = { id: string; record: SessionRecord; envelope: SessionEnvelope; underOldSecret: boolean };

/** Last-seen times are written at most this often per session: a request in between costs one read, no write. */
const TOUCH_INTERVAL_MS = 60_000;
const SWEEP_INTERVAL_MS = 60_000;

type Sessions = { store: SessionStore; sealer: Sealer; sweeper: NodeJS.Timeout };
const SESSIONS_KEY = Symbol.for("esign.sessions");
type GlobalWithSessions = typeof globalThis & { [SESSIONS_KEY]?: Sessions };

/**
 * The process-wide store, sealer and sweeper: Redis with REDIS_URL, else the embedded file store. On globalThis
 * because Next's production build gives proxy, route handlers and pages separate module instances in one process.
 */
function sessions(): Sessions {
  const g = globalThis as GlobalWithSessions;
  if (g[SESSIONS_KEY]) return g[SESSIONS_KEY];
  const { redisUrl, authSecrets, sessions: limits } = getConfig();
  const store = instrumented(redisUrl ? createRedisSessionStore(getRedisConnection(redisUrl), limits.maxAgeMs) : createFileSessionStore(limits.storeDir));
  const sweeper = setInterval(() => {
    store.sweep().catch((error: unknown) => getLogger().warn({ msg: `session sweep failed: ${error instanceof Error ? error.message : String(error)}` }));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  g[SESSIONS_KEY] = { store, sealer: createSealer(authSecrets), sweeper };
  return g[SESSIONS_KEY];
}

/** What each store method counts as in the metrics; the refresh lock's calls are not store operations there. */
const METRIC_OPERATION: Partial<Record<keyof SessionStore, SessionStoreOperation>> = {
  get: "get",
  put: "put",
  touch: "put",
  claimOnce: "put",
  delete: "delete",
  idsForSubject: "list",
  idsForOidcSid: "list",
  sweep: "sweep",
};

/** The store with each operation timed and counted (esign_session_store_operations_total). */
function instrumented(store: SessionStore): SessionStore {
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

/**
 * Opens the session store at server start and reports it: its state in the dependency probe round (readiness's
 * body and metrics, never readiness itself) and its active sessions at each scrape.
 */
export function monitorSessionStore(): void {
  const { store } = sessions();
  const probeId = storeName("session", "dependency-probe");
  registerDependencyProbe("session-store", async () => {
    await store.get(probeId);
  });
  // A scrape must not fail while the store is down (the store's own metrics say so): the last count stands.
  let lastCount = 0;
  registerActiveSessionsCollector(store.kind, async () => {
    lastCount = await store.countActive().catch(() => lastCount);
    return lastCount;
  });
}

/** The configured store, for the refresh lock, listings and health reports. */
export function getSessionStore(): SessionStore {
  return sessions().store;
}

function open(id: string, envelope: SessionEnvelope): StoredSession | null {
  const opened = sessions().sealer.open(envelope.sealed);
  // Sealed under a secret no longer listed, or altered: no session.
  if (!opened) return null;
  return { id, record: JSON.parse(opened.plaintext) as SessionRecord, envelope, underOldSecret: opened.underOldSecret };
}

/** Starts a session for a completed sign-in; returns the handle that goes into the session cookie. */
export async function createSession(record: SessionRecord): Promise<string> {
  const handle = newSessionHandle();
  const now = Date.now();
  await writeSession(storeName("session", handle), record, { createdAt: now, lastSeenAt: now });
  return handle;
}

/** Seals `record` and writes it whole, keeping the session's times. */
export async function writeSession(id: string, record: SessionRecord, times: Pick<SessionEnvelope, "createdAt" | "lastSeenAt">): Promise<void> {
  const { store, sealer } = sessions();
  await store.put(id, {
    sealed: sealer.seal(JSON.stringify(record)),
    subject: storeName("subject", record.subject),
    ...(record.oidcSid ? { oidcSid: storeName("oidc-sid", record.oidcSid) } : {}),
    createdAt: times.createdAt,
    lastSeenAt: times.lastSeenAt,
    expiresAt: sessionExpiresAt(times.createdAt, times.lastSeenAt, getConfig().sessions),
  });
}

const UNSAVED_KEY = Symbol.for("esign.unsavedSessions");
const UNSAVED_RETRY_MS = 1_000;
type Unsaved = Map<string, { record: SessionRecord; times: Pick<SessionEnvelope, "createdAt" | "lastSeenAt">; retry: NodeJS.Timeout }>;

function unsavedSessions(): Unsaved {
  const g = globalThis as typeof globalThis & { [UNSAVED_KEY]?: Unsaved };
  return (g[UNSAVED_KEY] ??= new Map());
}

/**
 * Writes tokens the service has just issued. They must not be lost, since the refresh token they replace is
 * spent: when the store cannot take them, this process keeps them, serves them to its own requests, and retries
 * every second until the store takes them.
 */
export async function writeIssuedTokens(id: string, record: SessionRecord, times: Pick<SessionEnvelope, "createdAt" | "lastSeenAt">): Promise<void> {
  const unsaved = unsavedSessions();
  clearInterval(unsaved.get(id)?.retry);
  unsaved.delete(id);
  try {
    await writeSession(id, record, times);
  } catch (error) {
    getLogger().warn({ msg: `session store unavailable; refreshed tokens kept in this process until it returns: ${error instanceof Error ? error.message : String(error)}` });
    const retry = setInterval(() => {
      writeSession(id, record, times).then(
        () => {
          clearInterval(retry);
          if (unsaved.get(id)?.retry === retry) unsaved.delete(id);
        },
        () => {},
      );
    }, UNSAVED_RETRY_MS);
    retry.unref();
    unsaved.set(id, { record, times, retry });
  }
}

/** The session a store id names, or null when it ended. Throws SessionStoreUnavailableError. */
export async function readSessionById(id: string): Promise<StoredSession | null> {
  const kept = unsavedSessions().get(id);
  if (kept) {
    const expiresAt = sessionExpiresAt(kept.times.createdAt, kept.times.lastSeenAt, getConfig().sessions);
    return { id, record: kept.record, envelope: { sealed: "", subject: "", ...kept.times, expiresAt }, underOldSecret: false };
  }
  const envelope = await sessions().store.get(id);
  return envelope ? open(id, envelope) : null;
}

/**
 * The session behind a cookie's handle, or null when it ended (signed out, expired, ended from another device
 * or by the service). Counts as activity: moves the idle timeout, at most once a minute.
 */
export async function readSession(handle: string): Promise<StoredSession | null> {
  const session = await readSessionById(storeName("session", handle));
  if (!session) return null;
  const now = Date.now();
  if (now - session.envelope.lastSeenAt >= TOUCH_INTERVAL_MS) {
    const expiresAt = sessionExpiresAt(session.envelope.createdAt, now, getConfig().sessions);
    // Not awaited: the request needs the session, not the new last-seen time (a write, fsync'd on the file store).
    // A touch that fails leaves the old time; the next request tries again.
    sessions()
      .store.touch(session.id, now, expiresAt)
      .catch((error: unknown) => getLogger().warn({ msg: `session last-seen time not written: ${error instanceof Error ? error.message : String(error)}` }));
    session.envelope = { ...session.envelope, lastSeenAt: now, expiresAt };
  }
  return session;
}

/** Every live session of a subject (the service's `sub`). */
export async function sessionsOfSubject(subject: string): Promise<StoredSession[]> {
  const ids = await sessions().store.idsForSubject(storeName("subject", subject));
  const found = await Promise.all(ids.map(readSessionById));
  return found.filter((s): s is StoredSession => s !== null && s.record.subject === subject);
}

/** Every live session started under the service's session `oidcSid` (back-channel logout). */
export async function sessionsOfOidcSid(oidcSid: string): Promise<StoredSession[]> {
  const ids = await sessions().store.idsForOidcSid(storeName("oidc-sid", oidcSid));
  const found = await Promise.all(ids.map(readSessionById));
  return found.filter((s): s is StoredSession => s !== null && s.record.oidcSid === oidcSid);
}

export async function deleteSession(id: string): Promise<void> {
  await sessions().store.delete(id);
}
