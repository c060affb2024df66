/**
 * One object store (keyed by `id`) of one IndexedDB database in this browser. Each call runs in a transaction of its
 * own and resolves when that transaction commits, so a write is durable once awaited; read-write transactions on one
 * store run in the order they were made. A failed open is not kept: the next call tries again (the browser may
 * have been briefly unable to).
 */
export function indexedDbStore(dbName: string, storeName: string) {
  let db: Promise<IDBDatabase> | undefined;
  const open = () =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(dbName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName, { keyPath: "id" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });

  function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T>;
  function run(mode: IDBTransactionMode, act: (store: IDBObjectStore) => void): Promise<void>;
  async function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
    db ??= open().catch((error: unknown) => {
      db = undefined;
      throw error;
    });
    const transaction = (await db).transaction(storeName, mode);
    const request = act(transaction.objectStore(storeName));
    return new Promise((resolve, reject) => {
      transaction.oncomplete = () => resolve(request ? request.result : undefined);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  }
  return run;
}
