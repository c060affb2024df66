import type { UploadedDocument } from "@/lib/upload/upload-document";

/** Enough to find a document again; no tokens and no SAS URLs are ever stored. */
export type RecentDocument = Pick<
  UploadedDocument,
  "name" | "doctype" | "itemId" | "fileId" | "subdocid" | "size" | "md5Hex" | "uploadedAt" | "replacedItemId"
>;

export const RECENT_DOCUMENTS_LIMIT = 20;
const KEY_PREFIX = "esign.recent-documents.v1:";

/** Per user, so two people sharing a browser profile do not see each other's list. */
export function recentDocumentsKey(userKey: string): string {
  return `${KEY_PREFIX}${userKey}`;
}

function isRecentDocument(value: unknown): value is RecentDocument {
  const v = value as Partial<RecentDocument> | null;
  return typeof v?.itemId === "string" && typeof v.fileId === "string" && typeof v.name === "string" && typeof v.size === "number";
}

/** The stored list, newest first; anything unreadable counts as empty rather than breaking the page. */
export function readRecentDocuments(storage: Storage, userKey: string): RecentDocument[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(recentDocumentsKey(userKey)) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isRecentDocument) : [];
  } catch {
    return [];
  }
}

/** Puts the document first, copying only the whitelisted fields, and keeps the newest 20. */
export function addRecentDocument(storage: Storage, userKey: string, doc: UploadedDocument): RecentDocument[] {
  const entry: RecentDocument = {
    name: doc.name,
    doctype: doc.doctype,
    itemId: doc.itemId,
    fileId: doc.fileId,
    subdocid: doc.subdocid,
    size: doc.size,
    md5Hex: doc.md5Hex,
    uploadedAt: doc.uploadedAt,
    ...(doc.replacedItemId ? { replacedItemId: doc.replacedItemId } : {}),
  };
  const list = [entry, ...readRecentDocuments(storage, userKey).filter((d) => d.itemId !== doc.itemId)].slice(0, RECENT_DOCUMENTS_LIMIT);
  try {
    storage.setItem(recentDocumentsKey(userKey), JSON.stringify(list));
  } catch {
    // Storage full or disabled (private mode): the list is a convenience, the upload itself succeeded.
  }
  return list;
}

/** Forgets this user's list in this browser. */
export function clearRecentDocuments(storage: Storage, userKey: string): void {
  storage.removeItem(recentDocumentsKey(userKey));
}
