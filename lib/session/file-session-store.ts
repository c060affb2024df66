import "server-only";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { createStorage, type Storage, type TransactionOptions } from "unstorage";
import fsLiteDriver from "unstorage/drivers/fs-lite";
import writeFileAtomic from "write-file-atomic";
import { getLogger } from "@/lib/logging/logger";
import { SessionStoreUnavailableError, type SessionEnvelope, type SessionStore } from "@/lib/session/session-store";
import { assertStoreDirStillLocked } from "@/lib/session/store-dir-lock";

type Indexed = { subject: string; oidcSid?: string; lastSeenAt: number; expiresAt: number };
type Claim = { expiresAt: number };

/**
 * unstorage's fs driver writes in place (`fs.writeFile`): a crash, or a read racing a write, can see a truncated
 * file. Writes here go through write-file-atomic instead (temporary file, fsync, rename), so a reader sees the
 * old envelope or the new one, never a part. Every write and removal first checks that this process still holds
 * the folder's lock, when it took one (store-dir-lock.ts).
 */
function atomicFsDriver(base: string) {
  const driver = fsLiteDriver({ base });
  return {
    ...driver,
    async setItem(key: string, value: string) {
      assertStoreDirStillLocked(base);
      const path = join(base, key.replace(/:/g, "/"));
      // Also when someone removed the directory under a running server: recreate it rather than fail sign-ins.
      await mkdir(dirname(path), { recursive: true });
      await writeFileAtomic(path, value, { encoding: "utf8" });
    },
    async removeItem(key: string, opts: TransactionOptions) {
      assertStoreDirStillLocked(base);
      await driver.removeItem?.(key, opts);
    },
  };
}

/**
 * The embedded store: one JSON file per session under `dir`, for a single instance with nothing to install.
 * Sessions survive a restart. An index of every session's subject, service session and expiry is kept in memory,
 * built from the files by a scan at the store's first use (the server opens the store at start, see
 * open-session-store.ts), so listing and sweeping read no file. A scan that fails (the folder unreadable) is
 * tried again at the next use; a file it cannot read is skipped and logged, and found by its id if it becomes
 * readable. One server process per folder (store-dir-lock.ts); a session another process wrote meanwhile (a
 * tool writing sessions, see bench/load) is found by its file and indexed then.
 */
export function createFileSessionStore(dir: string): SessionStore & { close(): void } {
  const base = resolve(dir);
  let storage: Storage | undefined;
  const index = new Map<string, Indexed>();
  // One read-modify-write at a time per session: a touch or a refresh's write never interleaves with a delete.
  const queues = new Map<string, Promise<unknown>>();

  let scan: Promise<void> | undefined;
  function ready(): Promise<void> {
    scan ??= scanFiles().catch((error: unknown) => {
      scan = undefined;
      throw error;
    });
    return scan;
  }

  async function scanFiles(): Promise<void> {
    await Promise.all([mkdir(join(base, "sessions"), { recursive: true }), mkdir(join(base, "claims"), { recursive: true })]);
    const opened = storage ?? createStorage({ driver: atomicFsDriver(base) });
    let skipped = 0;
    for (const key of await opened.getKeys("sessions")) {
      // unstorage's fs-lite driver hands a read error back as the value (it does not throw): check the shape.
      const value = await opened.getItem<unknown>(key).catch((error: unknown) => error);
      if (isEnvelope(value)) {
        index.set(key.slice("sessions:".length), indexEntry(value));
        continue;
      }
      skipped += 1;
      const why = value instanceof Error ? value.message : "not a session (truncated or foreign content)";
      getLogger().warn({ msg: `session store at ${base}: skipped an unreadable session file (${key}): ${why}` });
    }
    storage = opened;
    getLogger().info({ msg: `session store at ${base}: ${index.size} session(s) indexed${skipped ? `, ${skipped} unreadable file(s) skipped` : ""}` });
  }

  async function withStorage<T>(operation: (storage: Storage) => Promise<T>): Promise<T> {
    try {
      await ready();
      return await operation(storage!);
    } catch (error) {
      throw new SessionStoreUnavailableError(`session store at ${base}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  function serialised<T>(id: string, operation: () => Promise<T>): Promise<T> {
    const previous = queues.get(id) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(operation);
    queues.set(id, next);
    void next.finally(() => queues.get(id) === next && queues.delete(id)).catch(() => {});
    return next;
  }

  const live = (entry: { expiresAt: number } | undefined | null) => Boolean(entry && entry.expiresAt > Date.now());

  const store: SessionStore & { close(): void } = {
    kind: "file",
    get: (id) =>
      withStorage(async (s) => {
        const indexed = index.get(id);
        if (indexed && !live(indexed)) return null;
        // Not in the index: a session another process wrote to this directory (a restarted instance's new
        // process while the old one drains). Read it, and index it if it is live.
        const envelope = await s.getItem<unknown>(`sessions:${id}`);
        if (!isEnvelope(envelope)) return null;
        if (!indexed) {
          if (!live(envelope)) return null;
          index.set(id, indexEntry(envelope));
          return envelope;
        }
        // The index has the latest times: a touch updates it at once and writes the file after.
        return { ...envelope, lastSeenAt: indexed.lastSeenAt, expiresAt: indexed.expiresAt };
      }),
    put: (id, envelope) =>
      serialised(id, () =>
        withStorage(async (s) => {
          await s.setItem(`sessions:${id}`, JSON.stringify(envelope));
          index.set(id, indexEntry(envelope));
        }),
      ),
    update: (id, change) =>
      serialised(id, () =>
        withStorage(async (s) => {
          const envelope = await s.getItem<SessionEnvelope>(`sessions:${id}`);
          if (!envelope) return "gone";
          // The index has the latest times (a touch updates it first); keep them, change only the record.
          const indexed = index.get(id);
          const updated: SessionEnvelope = {
            ...envelope,
            ...(indexed ? { lastSeenAt: indexed.lastSeenAt, expiresAt: indexed.expiresAt } : {}),
            sealed: change.sealed,
            ...(change.oidcSid ? { oidcSid: change.oidcSid } : {}),
          };
          await s.setItem(`sessions:${id}`, JSON.stringify(updated));
          index.set(id, indexEntry(updated));
          return "written";
        }),
      ),
    touch: (id, lastSeenAt, expiresAt) => {
      const indexed = index.get(id);
      if (indexed) index.set(id, { ...indexed, lastSeenAt, expiresAt });
      return serialised(id, () =>
        withStorage(async (s) => {
          const envelope = await s.getItem<SessionEnvelope>(`sessions:${id}`);
          if (!envelope) return;
          await s.setItem(`sessions:${id}`, JSON.stringify({ ...envelope, lastSeenAt, expiresAt }));
        }),
      );
    },
    // In the session's queue, like update: no refresh can write between the read and the removal.
    delete: (id) =>
      serialised(id, () =>
        withStorage(async (s) => {
          const removed = await s.getItem<unknown>(`sessions:${id}`);
          await s.removeItem(`sessions:${id}`);
          index.delete(id);
          return isEnvelope(removed) ? removed : null;
        }),
      ),
    idsForSubject: (subject) => withStorage(async () => [...index].filter(([, e]) => e.subject === subject && live(e)).map(([id]) => id)),
    idsForOidcSid: (oidcSid) => withStorage(async () => [...index].filter(([, e]) => e.oidcSid === oidcSid && live(e)).map(([id]) => id)),
    claimOnce: (name, ttlMs) =>
      serialised(`claim:${name}`, () =>
        withStorage(async (s) => {
          if (live(await s.getItem<Claim>(`claims:${name}`))) return false;
          await s.setItem(`claims:${name}`, JSON.stringify({ expiresAt: Date.now() + ttlMs }));
          return true;
        }),
      ),
    releaseClaim: (name) => serialised(`claim:${name}`, () => withStorage((s) => s.removeItem(`claims:${name}`))),
    // One process: the in-process single-flight (session-refresh.ts) already lets one refresh run per session.
    tryLock: async () => true,
    renewLock: async () => true,
    releaseLock: async () => {},
    countActive: () => withStorage(async () => [...index.values()].filter(live).length),
    sweep: () =>
      withStorage(async (s) => {
        let removed = 0;
        for (const [id, entry] of index) {
          if (live(entry)) continue;
          await store.delete(id);
          removed += 1;
        }
        for (const key of await s.getKeys("claims")) {
          if (!live(await s.getItem<Claim>(key))) await s.removeItem(key);
        }
        return removed;
      }),
    close() {
      void storage?.dispose();
    },
  };
  return store;
}

function indexEntry(envelope: SessionEnvelope): Indexed {
  return { subject: envelope.subject, oidcSid: envelope.oidcSid, lastSeenAt: envelope.lastSeenAt, expiresAt: envelope.expiresAt };
}

function isEnvelope(value: unknown): value is SessionEnvelope {
  const v = value as Partial<SessionEnvelope> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    !(v instanceof Error) &&
    typeof v.sealed === "string" &&
    typeof v.subject === "string" &&
    typeof v.createdAt === "number" &&
    typeof v.lastSeenAt === "number" &&
    typeof v.expiresAt === "number"
  );
}
