import { beforeEach, describe, expect, it } from "vitest";
import { RECENT_DOCUMENTS_LIMIT, addRecentDocument, readRecentDocuments, recentDocumentsKey } from "@/lib/document-history";
import type { UploadedDocument } from "@/lib/upload/upload-document";

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

const doc = (n: number): UploadedDocument => ({
  name: `doc-${n}.pdf`,
  doctype: "contract",
  itemId: `item-${n}`,
  fileId: `file-${n}`,
  subdocid: 1,
  size: n,
  md5Hex: null,
  storageChecked: "none",
  transfer: "single",
  uploadedAt: "2026-01-01T00:00:00.000Z",
});

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
});

describe("recent documents", () => {
  it("stores only the whitelisted fields, never an upload URL or anything else handed in", () => {
    const withExtras = { ...doc(1), uploadendpoint: "http://x/blob?sig=secret", sas: "sig=secret" } as UploadedDocument;
    addRecentDocument(storage, "alice@example.com", withExtras);
    const raw = storage.getItem(recentDocumentsKey("alice@example.com"))!;
    expect(raw).not.toContain("sig=");
    expect(Object.keys(JSON.parse(raw)[0]).sort()).toEqual(["doctype", "fileId", "itemId", "md5Hex", "name", "size", "subdocid", "uploadedAt"]);
  });

  it("keeps the id of the item a renewal left without a file", () => {
    addRecentDocument(storage, "user-key", { ...doc(2), replacedItemId: "item-1" });
    expect(readRecentDocuments(storage, "user-key")[0]).toMatchObject({ itemId: "item-2", replacedItemId: "item-1" });
  });

  it("keeps one list per user, newest first, capped", () => {
    for (let n = 1; n <= RECENT_DOCUMENTS_LIMIT + 3; n++) addRecentDocument(storage, "alice@example.com", doc(n));
    addRecentDocument(storage, "bob@example.com", doc(99));
    const alice = readRecentDocuments(storage, "alice@example.com");
    expect(alice).toHaveLength(RECENT_DOCUMENTS_LIMIT);
    expect(alice[0]!.itemId).toBe(`item-${RECENT_DOCUMENTS_LIMIT + 3}`);
    expect(readRecentDocuments(storage, "bob@example.com").map((d) => d.itemId)).toEqual(["item-99"]);
  });

  it("reads damaged storage as an empty list instead of failing", () => {
    storage.setItem(recentDocumentsKey("alice@example.com"), "{not json");
    expect(readRecentDocuments(storage, "alice@example.com")).toEqual([]);
    storage.setItem(recentDocumentsKey("alice@example.com"), JSON.stringify([{ itemId: 1 }, doc(2)]));
    expect(readRecentDocuments(storage, "alice@example.com").map((d) => d.itemId)).toEqual(["item-2"]);
  });
});
