import { indexedDbMayExist } from "@/lib/browser/indexed-db-presence";
import { mayHoldReports } from "@/lib/documents/report-outbox-presence";

/**
 * Clears what this browser keeps for the user once their records are erased: the uploads it could resume (their
 * upload links with them) and the document reports waiting in the outbox, which would otherwise be sent later (and
 * refused). Other users' entries stay. A database this browser never created is not opened (an open would create it).
 */
export async function forgetBrowserRecords(userKey: string): Promise<void> {
  const [{ savedUploadStore, SAVED_UPLOADS_DB }, holdsReports] = await Promise.all([import("@/lib/upload/saved-upload-store"), mayHoldReports()]);
  if (await indexedDbMayExist(SAVED_UPLOADS_DB)) await savedUploadStore.forget(userKey);
  if (holdsReports) {
    const { indexedDbOutboxStore } = await import("@/lib/documents/report-outbox-store");
    await indexedDbOutboxStore.remove((await indexedDbOutboxStore.list(userKey)).map((entry) => entry.id));
  }
}
