import type { OutboxEntry, OutboxStore } from "@/lib/documents/report-outbox";

const DB_NAME = "esign-document-reports";
const STORE = "outbox";

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let db: Promise<IDBDatabase> | undefined;

/** Runs `act` in one transaction and resolves when it commits (so a removal is durable once awaited). */
async function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  // A failed open is not kept: the next call tries again (the browser may have been briefly unable to).
  db ??= openDb().catch((error: unknown) => {
    db = undefined;
    throw error;
  });
  const transaction = (await db).transaction(STORE, mode);
  const request = act(transaction.objectStore(STORE));
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve(request ? request.result : undefined);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/** Undelivered document reports in IndexedDB, every user's in one store, each entry tagged with its userKey. */
export const indexedDbOutboxStore: OutboxStore = {
  put: (entry) => run("readwrite", (store) => store.put(entry)),
  async list(userKey) {
    const all = ((await run("readonly", (store) => store.getAll())) ?? []) as OutboxEntry[];
    return all.filter((entry) => entry.userKey === userKey);
  },
  remove: (ids) =>
    run("readwrite", (store) => {
      for (const id of ids) store.delete(id);
    }),
};
