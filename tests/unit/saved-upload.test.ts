import { describe, expect, it, vi } from "vitest";
import { sasExpired } from "@/lib/upload/resume-point";
import { createResumeSaver } from "@/lib/upload/resume-saver";
import { isSameFile, withoutExpiredEndpoint, type SavedUpload } from "@/lib/upload/saved-upload";
import type { QueueItem } from "@/lib/upload/upload-queue";

const endpoint = (se: string) => `http://127.0.0.1:4002/devstoreaccount1/documents/f.bin?sv=2024&se=${encodeURIComponent(se)}&sp=cw&sig=abc`;
const now = Date.parse("2026-11-26T10:00:00Z");
const md5OfText = async (block: Blob) => `md5:${await block.text()}`;
const file = new File(["abcdefgh"], "scan.bin", { lastModified: 1000 });

const saved = (point: SavedUpload["point"]): SavedUpload => ({
  id: "upload-1",
  userKey: "alice@example.com",
  fileName: "scan.bin",
  size: 8,
  lastModified: 1000,
  blockSize: 4,
  firstBlockMd5: "md5:abcd",
  input: { docid: null, name: "scan.bin", doctype: "" },
  itemId: "item-1",
  point,
});
const pointFor = (se: string) => ({ created: { itemId: "item-1", uploadendpoint: endpoint(se) } as never, md5: null, blockSize: 4, staged: [0] });

describe("saved uploads", () => {
  it("treats a SAS as expired from a minute before its `se`", () => {
    expect(sasExpired(endpoint("2026-11-26T10:05:00Z"), now)).toBe(false);
    expect(sasExpired(endpoint("2026-11-26T10:00:30Z"), now)).toBe(true);
  });

  it("forgets the endpoint (and its signature) once the SAS expired, keeping the file's facts", () => {
    const live = saved(pointFor("2026-11-26T11:00:00Z"));
    expect(withoutExpiredEndpoint(live, now)).toBe(live);
    const expired = withoutExpiredEndpoint(saved(pointFor("2026-11-26T09:00:00Z")), now);
    expect(expired.point).toBeNull();
    expect(JSON.stringify(expired)).not.toContain("sig=");
    expect(expired.fileName).toBe("scan.bin");
    // Still known: discarding the upload closes this document's record, starting it over replaces it.
    expect(expired.itemId).toBe("item-1");
  });

  it("recognises the same file by size, last-modified and its first block's MD5, and refuses another", async () => {
    const s = saved(null);
    expect(await isSameFile(file, s, md5OfText)).toBe(true);
    expect(await isSameFile(new File(["abcdXXXX"], "scan.bin", { lastModified: 1000 }), s, md5OfText)).toBe(true);
    expect(await isSameFile(new File(["XbcdefgH"], "scan.bin", { lastModified: 1000 }), s, md5OfText)).toBe(false);
    expect(await isSameFile(new File(["abcdefgh"], "scan.bin", { lastModified: 2000 }), s, md5OfText)).toBe(false);
    expect(await isSameFile(new File(["abcdefg"], "scan.bin", { lastModified: 1000 }), s, md5OfText)).toBe(false);
  });

  const item = { id: "upload-1", file, input: { docid: null, name: "scan.bin", doctype: "" } } as QueueItem;
  const recordingStore = (log: string[], saveMs = 0) => ({
    save: async (s: SavedUpload) => {
      log.push(`saving ${s.point!.staged.join(",")}`);
      await new Promise((r) => setTimeout(r, saveMs));
      log.push(`saved ${s.point!.staged.join(",")} ${s.firstBlockMd5} ${s.itemId}`);
    },
    remove: async (id: string) => void log.push(`remove ${id}`),
  });

  it("writes one upload's points in order, so the removal after completion is never overtaken by a save", async () => {
    const log: string[] = [];
    // IndexedDB takes its time with each save; the hash is quick.
    const saver = createResumeSaver("alice@example.com", recordingStore(log, 20), md5OfText);
    saver.save(item, { ...pointFor("2026-11-26T11:00:00Z"), staged: [0] });
    saver.save(item, { ...pointFor("2026-11-26T11:00:00Z"), staged: [0, 1] });
    await vi.waitFor(() => expect(log).toContain("saving 0,1"), { timeout: 10_000, interval: 5 });
    saver.remove("upload-1");
    await vi.waitFor(() => expect(log).toContain("remove upload-1"), { timeout: 10_000, interval: 5 });
    expect(log).toEqual(["saving 0", "saved 0 md5:abcd item-1", "saving 0,1", "saved 0,1 md5:abcd item-1", "remove upload-1"]);
  });

  it("removes at once the point of an upload whose first block is still being hashed, and drops its saves", async () => {
    const log: string[] = [];
    let finishHash: (md5: string) => void = () => {};
    const pendingHash = () => new Promise<string>((resolve) => (finishHash = resolve));
    const saver = createResumeSaver("alice@example.com", recordingStore(log), pendingHash);
    saver.save(item, { ...pointFor("2026-11-26T11:00:00Z"), staged: [0] });
    saver.save(item, { ...pointFor("2026-11-26T11:00:00Z"), staged: [0, 1] });
    saver.remove("upload-1");
    await vi.waitFor(() => expect(log).toEqual(["remove upload-1"]), { timeout: 10_000, interval: 5 });
    // The hash ends later: the dropped saves stay dropped.
    finishHash("md5:abcd");
    await new Promise((r) => setTimeout(r, 50));
    expect(log).toEqual(["remove upload-1"]);
  });

  it("saves an upload's points again after a removal (the same upload started over)", async () => {
    const log: string[] = [];
    const saver = createResumeSaver("alice@example.com", recordingStore(log), md5OfText);
    saver.remove("upload-1");
    saver.save(item, { ...pointFor("2026-11-26T11:00:00Z"), staged: [0] });
    await vi.waitFor(() => expect(log).toContain("saved 0 md5:abcd item-1"), { timeout: 10_000, interval: 5 });
    expect(log).toEqual(["remove upload-1", "saving 0", "saved 0 md5:abcd item-1"]);
  });
});
