import type { UploadedDocument } from "@/lib/upload/upload-document";

/**
 * The browser-only list of recent documents that earlier versions kept in localStorage (20 per user). It is read
 * once, imported into the server record (lib/documents/import-browser-history.ts) and deleted; nothing writes it
 * any more. No tokens and no SAS URLs were ever stored in it.
 */
export type RecentDocument = Pick<
  UploadedDocument,
  "name" | "doctype" | "itemId" | "fileId" | "subdocid" | "size" | "md5Hex" | "uploadedAt" | "replacedItemId"
>;

const KEY_PREFIX = "esign.recent-documents.v1:";

/** Per user, so two people sharing a browser profile never import each other's list. */
export function recentDocumentsKey(userKey: string): string {
  return `${KEY_PREFIX}${userKey}`;
}

function isRecentDocument(value: unknown): value is RecentDocument {
  const v = value as Partial<RecentDocument> | null;
  return typeof v?.itemId === "string" && typeof v.fileId === "string" && typeof v.name === "string" && typeof v.size === "number";
}

/** Copies only the list's own fields: whatever else a stored entry holds is not sent anywhere. */
function pickRecentDocument(doc: RecentDocument): RecentDocument {
  return {
    name: doc.name,
    doctype: typeof doc.doctype === "string" ? doc.doctype : "",
    itemId: doc.itemId,
    fileId: doc.fileId,
    subdocid: doc.subdocid,
    size: doc.size,
    md5Hex: typeof doc.md5Hex === "string" ? doc.md5Hex : null,
    uploadedAt: doc.uploadedAt,
    ...(typeof doc.replacedItemId === "string" ? { replacedItemId: doc.replacedItemId } : {}),
  };
}

/**
 * Whether this browser holds a list for this user at all (readable or not), without reading it: the documents page
 * loads the import code only then. Storage that cannot be read (disabled) holds nothing to import.
 */
export function hasRecentDocuments(storage: Storage, userKey: string): boolean {
  try {
    return storage.getItem(recentDocumentsKey(userKey)) !== null;
  } catch {
    return false;
  }
}

/** The stored list, newest first; anything unreadable counts as empty rather than breaking the page. */
export function readRecentDocuments(storage: Storage, userKey: string): RecentDocument[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(recentDocumentsKey(userKey)) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isRecentDocument).map(pickRecentDocument) : [];
  } catch {
    return [];
  }
}

/** Forgets this user's list in this browser. */
export function clearRecentDocuments(storage: Storage, userKey: string): void {
  storage.removeItem(recentDocumentsKey(userKey));
}
