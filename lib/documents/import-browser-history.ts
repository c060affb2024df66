import { clearRecentDocuments, readRecentDocuments, type RecentDocument } from "@/lib/document-history";

/** Sends the documents to `POST /api/documents/import`; rejects when the app did not take them. */
export type ImportDocuments = (documents: RecentDocument[]) => Promise<unknown>;

/**
 * Moves this user's browser-only list (kept in localStorage before the app had a record) into the server record,
 * once: the list is deleted only after the app took it, so a database outage just moves the import to the next
 * visit. Resolves true when something was imported (the page then shows it).
 */
export async function importBrowserHistory(storage: Storage, userKey: string, send: ImportDocuments): Promise<boolean> {
  const documents = readRecentDocuments(storage, userKey);
  if (documents.length === 0) {
    // An unreadable or empty leftover: nothing to import, nothing worth keeping.
    clearRecentDocuments(storage, userKey);
    return false;
  }
  await send(documents);
  clearRecentDocuments(storage, userKey);
  return true;
}
