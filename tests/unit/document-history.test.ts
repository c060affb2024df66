import { beforeEach, describe, expect, it, vi } from "vitest";
import { hasRecentDocuments, readRecentDocuments, recentDocumentsKey, type RecentDocument } from "@/lib/document-history";
import { importBrowserHistory } from "@/lib/documents/import-browser-history";

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

const doc = (n: number): RecentDocument => ({
  name: `doc-${n}.pdf`,
  doctype: "contract",
  itemId: `item-${n}`,
  fileId: `file-${n}`,
  subdocid: 1,
  size: n,
  md5Hex: null,
  uploadedAt: "2026-01-01T00:00:00.000Z",
});

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
});
const store = (userKey: string, list: unknown) => storage.setItem(recentDocumentsKey(userKey), JSON.stringify(list));

describe("the browser-only list of earlier versions", () => {
  it("reads only the list's own fields, whatever else a stored entry holds", () => {
    store("alice", [{ ...doc(1), uploadendpoint: "http://x/blob?sig=secret", sas: "sig=secret", replacedItemId: "item-0" }]);
    const [read] = readRecentDocuments(storage, "alice");
    expect(Object.keys(read!).sort()).toEqual(["doctype", "fileId", "itemId", "md5Hex", "name", "replacedItemId", "size", "subdocid", "uploadedAt"]);
    expect(JSON.stringify(read)).not.toContain("sig=");
  });

  it("reads damaged storage as an empty list instead of failing", () => {
    storage.setItem(recentDocumentsKey("alice"), "{not json");
    expect(readRecentDocuments(storage, "alice")).toEqual([]);
    store("alice", [{ itemId: 1 }, doc(2)]);
    expect(readRecentDocuments(storage, "alice").map((d) => d.itemId)).toEqual(["item-2"]);
  });

  it("says whether this user has a list (even a damaged one) without reading it, and none where storage is disabled", () => {
    expect(hasRecentDocuments(storage, "alice")).toBe(false);
    storage.setItem(recentDocumentsKey("alice"), "{not json");
    expect(hasRecentDocuments(storage, "alice")).toBe(true);
    expect(hasRecentDocuments(storage, "bob")).toBe(false);
    const disabled = { getItem: () => { throw new Error("SecurityError"); } } as unknown as Storage;
    expect(hasRecentDocuments(disabled, "alice")).toBe(false);
  });
});

describe("importBrowserHistory", () => {
  it("sends this user's list to the app once, then deletes it; another user's list stays untouched", async () => {
    store("alice", [doc(2), doc(1)]);
    store("bob", [doc(9)]);
    const send = vi.fn(async () => "delivered" as const);
    expect(await importBrowserHistory(storage, "alice", send)).toBe(true);
    expect(send).toHaveBeenCalledWith([doc(2), doc(1)]);
    expect(storage.getItem(recentDocumentsKey("alice"))).toBeNull();
    expect(storage.getItem(recentDocumentsKey("bob"))).not.toBeNull();
    // The next visit finds nothing to import.
    expect(await importBrowserHistory(storage, "alice", send)).toBe(false);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("keeps the list when the app did not answer (database down) or rate-limited it, and deletes it when the app refused it for good", async () => {
    store("alice", [doc(1)]);
    expect(await importBrowserHistory(storage, "alice", async () => "retry")).toBe(false);
    expect(readRecentDocuments(storage, "alice")).toEqual([doc(1)]);
    // Rate-limited (429 with Retry-After): kept too.
    expect(await importBrowserHistory(storage, "alice", async () => ({ retryAfterMs: 30_000 }))).toBe(false);
    expect(readRecentDocuments(storage, "alice")).toEqual([doc(1)]);
    expect(await importBrowserHistory(storage, "alice", async () => "refused")).toBe(false);
    expect(storage.getItem(recentDocumentsKey("alice"))).toBeNull();
  });

  it("deletes an unreadable leftover without sending anything", async () => {
    storage.setItem(recentDocumentsKey("alice"), "{not json");
    const send = vi.fn(async () => "delivered" as const);
    expect(await importBrowserHistory(storage, "alice", send)).toBe(false);
    expect(send).not.toHaveBeenCalled();
    expect(storage.getItem(recentDocumentsKey("alice"))).toBeNull();
  });
});
