import { withoutExpiredEndpoint, type SavedUpload } from "@/lib/upload/saved-upload";

const DB_NAME = "esign-uploads";
const STORE = "interrupted";

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let db: Promise<IDBDatabase> | undefined;

/** One request in its own transaction; read-write transactions on one store run in the order they were made. */
async function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  db ??= openDb();
  const store = (await db).transaction(STORE, mode).objectStore(STORE);
  return new Promise((resolve, reject) => {
    const request = act(store);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export const savedUploadStore = {
  save: (saved: SavedUpload) => run("readwrite", (store) => store.put(saved)),
  remove: (id: string) => run("readwrite", (store) => store.delete(id)),
  /** This user's interrupted uploads; endpoints whose SAS expired are erased from storage on the way. */
  async list(userKey: string): Promise<SavedUpload[]> {
    const all = (await run("readonly", (store) => store.getAll())) as SavedUpload[];
    const mine = all.filter((saved) => saved.userKey === userKey);
    const fresh = mine.map((saved) => withoutExpiredEndpoint(saved));
    await Promise.all(fresh.filter((saved, i) => saved !== mine[i]).map((saved) => savedUploadStore.save(saved)));
    return fresh;
  },
  /** Deletes this user's interrupted uploads, their upload links (SAS URLs) with them: at sign-out. */
  async forget(userKey: string): Promise<void> {
    const all = (await run("readonly", (store) => store.getAll())) as SavedUpload[];
    await Promise.all(all.filter((saved) => saved.userKey === userKey).map((saved) => savedUploadStore.remove(saved.id)));
  },
  /**
   * Drops every saved upload link in this browser, whoever it belongs to, keeping the uploads' facts so
   * each owner can still start over: for "Use another account", where nobody is signed in to say whose
   * links they are.
   */
  async dropAllEndpoints(): Promise<void> {
    const all = (await run("readonly", (store) => store.getAll())) as SavedUpload[];
    await Promise.all(all.filter((saved) => saved.point).map((saved) => savedUploadStore.save({ ...saved, point: null })));
  },
};
