/**
 * Whether this browser may hold the IndexedDB database `dbName`: false only when it was never created here or there
 * is no IndexedDB, so a page load can skip opening it (an open creates the database on a first visit) and the code
 * that reads it (docs/page-weight.md). A browser without `indexedDB.databases()` answers true, and the caller looks.
 */
export async function indexedDbMayExist(dbName: string): Promise<boolean> {
  if (typeof indexedDB === "undefined") return false;
  if (typeof indexedDB.databases !== "function") return true;
  try {
    return (await indexedDB.databases()).some((db) => db.name === dbName);
  } catch {
    return true;
  }
}
