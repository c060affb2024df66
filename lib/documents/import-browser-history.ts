import { clearRecentDocuments, readRecentDocuments, type RecentDocument } from "@/lib/document-history";
import type { SendOutcome } from "@/lib/documents/report-outbox";

/** Sends the documents to `POST /api/documents/import` and says how the app answered. */
export type ImportDocuments = (documents: RecentDocument[]) => Promise<SendOutcome>;

/**
 * Moves this user's browser-only list (kept in localStorage before the app had a record) into the server record,
 * once. The list is deleted when the app took it, or refused it for good (a 4xx: sending it again cannot help);
 * when the app did not answer (database down, offline) it stays, and the next visit tries again. Resolves true
 * when something was imported (the page then shows it).
 */
export async function importBrowserHistory(storage: Storage, userKey: string, send: ImportDocuments): Promise<boolean> {
  const documents = readRecentDocuments(storage, userKey);
  if (documents.length === 0) {
    // An unreadable or empty leftover: nothing to import, nothing worth keeping.
    clearRecentDocuments(storage, userKey);
    return false;
  }
  const outcome = await send(documents);
  // Not answered, or rate-limited (429): kept for the next visit.
  if (outcome !== "delivered" && outcome !== "refused") return false;
  clearRecentDocuments(storage, userKey);
  return outcome === "delivered";
}
