import { indexedDbMayExist } from "@/lib/browser/indexed-db-presence";
import { indexedDbStore } from "@/lib/browser/indexed-db-store";
import { withoutExpiredEndpoint, type SavedUpload } from "@/lib/upload/saved-upload";

/** The IndexedDB database the interrupted uploads are kept in. */
export const SAVED_UPLOADS_DB = "esign-uploads";
const run = indexedDbStore(SAVED_UPLOADS_DB, "interrupted");

export const savedUploadStore = {
  save: (saved: SavedUpload) => run("readwrite", (store) => store.put(saved)),
  remove: (id: string) => run("readwrite", (store) => store.delete(id)),
  /**
   * This user's interrupted uploads; endpoints whose SAS expired are erased from storage on the way. A browser that
   * never saved one is not asked to open (and so create) the database: /documents reads this on every load.
   */
  async list(userKey: string): Promise<SavedUpload[]> {
    if (!(await indexedDbMayExist(SAVED_UPLOADS_DB))) return [];
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
