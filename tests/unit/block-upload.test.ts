import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CreateDocumentResult } from "@/lib/esign/schemas";
import { MAX_BLOCKS, blockId, planBlocks } from "@/lib/upload/block-layout";
import { createHash } from "node:crypto";
import { uploadInBlocks } from "@/lib/upload/block-upload";
import { hashBlockMd5 } from "@/lib/upload/put-block";
import type { BlockHasher } from "@/lib/upload/block-hasher";
import { createProgressTracker } from "@/lib/upload/progress-tracker";
import { uploadDocument, type UploadDocumentOptions, type UploadStage } from "@/lib/upload/upload-document";
import type { UploadMilestone } from "@/lib/documents/document-report";

const ORIGIN = "http://127.0.0.1:4002";
const url = new URL(`${ORIGIN}/devstoreaccount1/documents/f.bin?sv=2024&sig=x`);

type Sent = { url: URL; headers: Record<string, string>; body: unknown };
/** Decides each request's fate: an HTTP status (with optional XML body) or "network" (status 0). */
type Answer = { status: number; body?: string } | "network";
let answer: (req: Sent) => Answer = () => ({ status: 201 });
/** Whether a request goes silent after its first progress event: no more bytes, no answer. */
let stalls: (req: Sent) => boolean = () => false;
let sent: Sent[] = [];
let inFlight = 0;
let maxInFlight = 0;

class FakeXhr {
  status = 0;
  responseText = "";
  upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private done = false;
  private req: Sent = { url, headers: {}, body: null };
  open(_method: string, href: string) {
    this.req.url = new URL(href);
  }
  setRequestHeader(name: string, value: string) {
    this.req.headers[name.toLowerCase()] = value;
  }
  getResponseHeader() {
    return null;
  }
  abort() {
    if (this.done) return;
    this.done = true;
    inFlight--;
    queueMicrotask(() => this.onabort?.());
  }
  send(body: unknown) {
    this.req.body = body;
    sent.push(this.req);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const size = body instanceof Blob ? body.size : 0;
    setTimeout(() => {
      if (this.done) return;
      // Half the block first, as a real upload reports progress while bytes are on the way.
      this.upload.onprogress?.({ loaded: Math.floor(size / 2) });
      if (stalls(this.req)) return;
      setTimeout(() => {
        if (this.done) return;
        this.done = true;
        inFlight--;
        const a = answer(this.req);
        if (a === "network") return this.onerror?.();
        this.status = a.status;
        this.responseText = a.body ?? "";
        this.onload?.();
      }, 1);
    }, 1);
  }
}

const blockIndex = (req: Sent) => {
  const id = req.url.searchParams.get("blockid");
  return id === null ? null : Number(atob(id).split("-")[1]);
};
const blockPuts = () => sent.filter((r) => r.url.searchParams.get("comp") === "block");
const fakeBlockMd5 = async (block: Blob) => `md5-of-${block.size}`;
const fileOf = (bytes: number) => new File([new Uint8Array(bytes)], "big.bin");
/** True for the first request that sends block `index`, false for every other request (its retry included). */
const firstSendOf = (index: number) => {
  let seen = false;
  return (req: Sent) => {
    if (blockIndex(req) !== index || seen) return false;
    seen = true;
    return true;
  };
};

beforeEach(() => {
  answer = () => ({ status: 201 });
  stalls = () => false;
  sent = [];
  inFlight = 0;
  maxInFlight = 0;
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("block layout", () => {
  it("gives every block of a blob an id of the same length, the same on a second run, and distinct per index", () => {
    const ids = [0, 1, 9, 10, 49_999].map((i) => blockId(url.pathname, i));
    expect(new Set(ids.map((id) => id.length)).size).toBe(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(blockId(url.pathname, 7)).toBe(blockId(new URL(url.href.replace("sig=x", "sig=y")).pathname, 7));
    expect(blockId("/devstoreaccount1/documents/other.bin", 7)).not.toBe(blockId(url.pathname, 7));
    expect(atob(ids[0]!).length).toBeLessThanOrEqual(64);
  });

  it("grows the block size only when the file would need more than 50,000 blocks", () => {
    expect(planBlocks(100, 10)).toEqual({ blockSize: 10, count: 10 });
    expect(planBlocks(101, 10)).toEqual({ blockSize: 10, count: 11 });
    const huge = planBlocks(MAX_BLOCKS * 10 + 1, 10);
    expect(huge.count).toBeLessThanOrEqual(MAX_BLOCKS);
  });
});

describe("hashBlockMd5", () => {
  it("gives the base64 MD5 of exactly the block's bytes, as Content-MD5 wants it", async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31) % 251);
    const block = new File([bytes], "f.bin").slice(1024 * 1024, 3 * 1024 * 1024 + 5);
    const expected = createHash("md5").update(bytes.subarray(1024 * 1024, 3 * 1024 * 1024 + 5)).digest("base64");
    expect(await hashBlockMd5(block)).toBe(expected);
  });
});

describe("uploadInBlocks", () => {
  it("stages every block with its Content-MD5, at most `concurrency` at once, then commits them in order with the file's MD5", async () => {
    const file = fileOf(100);
    await uploadInBlocks({ url, file, blockSize: 10, concurrency: 4, fileMd5Base64: "whole==", hashBlock: fakeBlockMd5 });
    const blocks = blockPuts();
    expect(blocks.map(blockIndex).sort((a, b) => a! - b!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(blocks.every((b) => b.headers["content-md5"] === "md5-of-10" && (b.body as Blob).size === 10)).toBe(true);
    expect(blocks[0]!.url.searchParams.get("sig")).toBe("x");
    expect(maxInFlight).toBe(4);
    const commit = sent.at(-1)!;
    expect(commit.url.searchParams.get("comp")).toBe("blocklist");
    expect(commit.headers["x-ms-blob-content-md5"]).toBe("whole==");
    const listed = [...(commit.body as string).matchAll(/<Latest>([^<]+)<\/Latest>/g)].map((m) => m[1]);
    expect(listed).toEqual(Array.from({ length: 10 }, (_, i) => blockId(url.pathname, i)));
  });

  it("counts the bytes of blocks in flight in its progress, which through the tracker never goes backwards", async () => {
    const readings: number[] = [];
    const drop = firstSendOf(3);
    answer = (req) => (drop(req) ? "network" : { status: 201 });
    const tracker = createProgressTracker(100);
    const shown: number[] = [];
    vi.useFakeTimers();
    const done = uploadInBlocks({
      url,
      file: fileOf(100),
      blockSize: 10,
      concurrency: 4,
      hashBlock: fakeBlockMd5,
      onProgress: (loaded) => {
        readings.push(loaded);
        shown.push(tracker.update(loaded, readings.length).loaded);
      },
    });
    await vi.advanceTimersByTimeAsync(2000);
    await done;
    // Four blocks half-sent before any finished: 4 × 5 bytes in flight.
    expect(readings).toContain(20);
    expect(readings.at(-1)).toBe(100);
    expect(Math.min(...readings.slice(1).map((r, i) => r - readings[i]!))).toBeLessThan(0);
    for (let i = 1; i < shown.length; i++) expect(shown[i]!).toBeGreaterThanOrEqual(shown[i - 1]!);
  });

  it("after a dropped connection re-sends only the missing block, after a 1 s backoff", async () => {
    vi.useFakeTimers();
    const drop = firstSendOf(5);
    answer = (req) => (drop(req) ? "network" : { status: 201 });
    const retries: number[] = [];
    const done = uploadInBlocks({ url, file: fileOf(100), blockSize: 10, concurrency: 4, hashBlock: fakeBlockMd5, onRetry: (_a, d) => retries.push(d) });
    await vi.advanceTimersByTimeAsync(500);
    expect(blockPuts().filter((r) => blockIndex(r) === 5)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1500);
    await done;
    expect(retries).toEqual([1000]);
    expect(blockPuts()).toHaveLength(11);
    expect(blockPuts().filter((r) => blockIndex(r) === 5)).toHaveLength(2);
    expect(sent.at(-1)!.url.searchParams.get("comp")).toBe("blocklist");
  });

  it("cuts a block that stops making progress and re-sends only that block, so a stall cannot hang the upload", async () => {
    vi.useFakeTimers();
    stalls = firstSendOf(5);
    const retries: number[] = [];
    const done = uploadInBlocks({
      url,
      file: fileOf(100),
      blockSize: 10,
      concurrency: 4,
      hashBlock: fakeBlockMd5,
      stallTimeoutMs: 200,
      onRetry: (_a, d) => retries.push(d),
    });
    await vi.advanceTimersByTimeAsync(150);
    expect(retries).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(retries).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(1000);
    await done;
    expect(blockPuts()).toHaveLength(11);
    expect(blockPuts().filter((r) => blockIndex(r) === 5)).toHaveLength(2);
    expect(sent.at(-1)!.url.searchParams.get("comp")).toBe("blocklist");
  });

  it("resuming sends only the blocks not yet staged and still commits all of them", async () => {
    const staged: number[] = [];
    const progress: number[] = [];
    await uploadInBlocks({
      url,
      file: fileOf(95),
      blockSize: 10,
      concurrency: 2,
      staged: [0, 1, 2, 7],
      hashBlock: fakeBlockMd5,
      onBlockStaged: (i) => staged.push(i),
      onProgress: (l) => progress.push(l),
    });
    expect(blockPuts().map(blockIndex).sort()).toEqual([3, 4, 5, 6, 8, 9]);
    expect(staged.sort()).toEqual([3, 4, 5, 6, 8, 9]);
    expect(progress[0]).toBe(40);
    expect(progress.at(-1)).toBe(95);
    expect((sent.at(-1)!.body as string).match(/<Latest>/g)).toHaveLength(10);
  });

  it("cancelling stops the blocks in flight and never commits", async () => {
    const controller = new AbortController();
    const done = uploadInBlocks({ url, file: fileOf(100), blockSize: 10, concurrency: 4, hashBlock: fakeBlockMd5, signal: controller.signal });
    setTimeout(() => controller.abort(), 3);
    await expect(done).rejects.toMatchObject({ code: "UPLOAD_CANCELLED" });
    expect(sent.some((r) => r.url.searchParams.get("comp") === "blocklist")).toBe(false);
  });
});

describe("uploadDocument with blocks", () => {
  const blocks = { thresholdBytes: 50, blockSize: 10, concurrency: 4 };
  const input = { docid: null, name: "big.bin", doctype: "" };
  const fakeHash = async () => ({ base64: "XUFAKrxLKna5cZ2REBfFkg==", hex: "5d41402abc4b2a76b9719d911017c592" });
  // Node has no Web Worker: the same MD5 on this thread.
  const createBlockHasher = (): BlockHasher => ({ hash: hashBlockMd5, dispose: () => {} });
  let created = 0;
  const createDocument = async (): Promise<CreateDocumentResult> => {
    created++;
    const fileId = `00000000-0000-4000-8000-00000000000${created}`;
    return {
      itemId: `item-${created}`,
      fileId,
      container: "documents",
      sas: "sig=x",
      url: `${ORIGIN}/devstoreaccount1/documents/${fileId}.bin`,
      subdocid: 1,
      uploadendpoint: `${ORIGIN}/devstoreaccount1/documents/${fileId}.bin?sp=c&sig=${created}`,
    };
  };
  const run = (file: File, refusals = new Set<string>(), stages: UploadStage[] = []) =>
    uploadDocument({ file, input, allowedOrigins: [ORIGIN], createDocument, hashFile: fakeHash, createBlockHasher, blocks, blockRefusals: refusals, onStage: (s) => stages.push(s) });
  /** A 100-byte file resumed from `staged` 10-byte blocks on `created`, whose saved MD5 is "saved==". */
  const resume = (created: CreateDocumentResult, staged: number[], options: Partial<UploadDocumentOptions> = {}) =>
    uploadDocument({
      file: fileOf(100),
      input,
      allowedOrigins: [ORIGIN],
      createDocument,
      hashFile: fakeHash,
      createBlockHasher,
      blocks,
      resumeFrom: { created, md5: { base64: "saved==", hex: "00" }, blockSize: 10, staged },
      ...options,
    });
  beforeEach(() => {
    created = 0;
  });

  it("sends a file at or below the threshold in one PUT, unchanged", async () => {
    const result = await run(fileOf(50));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers["x-ms-blob-type"]).toBe("BlockBlob");
    expect(result.transfer).toBe("single");
  });

  it("falls back to one PUT of the same file when the first Put Block is refused (403 permission), and remembers the origin", async () => {
    answer = (req) =>
      req.url.searchParams.get("comp") === "block" ? { status: 403, body: "<Error><Code>AuthorizationPermissionMismatch</Code></Error>" } : { status: 201 };
    const refusals = new Set<string>();
    const stages: UploadStage[] = [];
    const first = await run(fileOf(100), refusals, stages);
    expect(first.transfer).toBe("fallback");
    expect(created).toBe(1);
    const single = sent.filter((r) => !r.url.searchParams.has("comp"));
    expect(single).toHaveLength(1);
    expect((single[0]!.body as Blob).size).toBe(100);
    expect(stages).toContainEqual(expect.objectContaining({ stage: "uploading", mode: "fallback" }));
    expect(refusals).toEqual(new Set([ORIGIN]));

    sent = [];
    const second = await run(fileOf(100), refusals);
    expect(sent.map((r) => r.url.searchParams.get("comp"))).toEqual([null]);
    expect(second.transfer).toBe("single");
  });

  it("resumes on the saved endpoint with the saved block size, sending only the missing blocks", async () => {
    // The configured block size changed since; the staged indexes only mean something with the old one.
    const resumed = await resume(await createDocument(), [0, 1, 2, 3, 4, 5, 6], { blocks: { ...blocks, blockSize: 20 } });
    expect(created).toBe(1);
    expect(blockPuts().map(blockIndex).sort()).toEqual([7, 8, 9]);
    expect(blockPuts().every((r) => (r.body as Blob).size === 10 && r.url.searchParams.get("sig") === "1")).toBe(true);
    expect(sent.at(-1)!.headers["x-ms-blob-content-md5"]).toBe("saved==");
    expect(resumed).toMatchObject({ itemId: "item-1", transfer: "blocks" });
  });

  it("starts over on a fresh endpoint when the saved SAS expired, says so, and forgets the old point", async () => {
    const saved = { ...(await createDocument()), uploadendpoint: `${ORIGIN}/devstoreaccount1/documents/old.bin?se=2026-01-01T00%3A00%3A00Z&sp=cw&sig=old` };
    const stages: UploadStage[] = [];
    const points: unknown[] = [];
    const result = await resume(saved, [0, 1, 2], { onStage: (stage) => stages.push(stage), onResumePoint: (point) => points.push(point) });
    expect(stages[0]).toEqual({ stage: "restarting" });
    expect(points[0]).toBeNull();
    expect(created).toBe(2);
    // Every block goes again, all to the new endpoint; nothing to the expired one.
    expect(blockPuts().map(blockIndex).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sent.every((r) => r.url.searchParams.get("sig") === "2")).toBe(true);
    // Same file (checked when it was picked again): its saved MD5 still holds.
    expect(sent.at(-1)!.headers["x-ms-blob-content-md5"]).toBe("saved==");
    expect(result).toMatchObject({ itemId: "item-2", transfer: "blocks" });
  });

  it("falls back on a 400 to the first Put Block too", async () => {
    answer = (req) => (req.url.searchParams.get("comp") === "block" ? { status: 400 } : { status: 201 });
    expect((await run(fileOf(100))).transfer).toBe("fallback");
  });

  it("reports a resumed upload as 'resumed' in blocks, and an expired saved link as the old item replaced by the new", async () => {
    const reports: string[] = [];
    const report = (itemId: string, milestone: UploadMilestone) =>
      reports.push(`${milestone.type} ${itemId}${"mode" in milestone ? ` ${milestone.mode}` : ""}${"replacedByItemId" in milestone ? ` by ${milestone.replacedByItemId}` : ""}`);
    await resume(await createDocument(), [0, 1, 2], { report });
    expect(reports).toEqual(["resumed item-1 blocks", "uploaded item-1 blocks"]);

    reports.length = 0;
    const saved = { ...(await createDocument()), uploadendpoint: `${ORIGIN}/devstoreaccount1/documents/old.bin?se=2026-01-01T00%3A00%3A00Z&sp=cw&sig=old` };
    await resume(saved, [0, 1, 2], { report });
    expect(reports).toEqual(["replaced item-2 by item-3", "upload_started item-3 blocks", "uploaded item-3 blocks"]);
  });

  it("reports a fallback from blocks to one PUT as a second start, in one piece", async () => {
    answer = (req) => (req.url.searchParams.get("comp") === "block" ? { status: 400 } : { status: 201 });
    const modes: string[] = [];
    await uploadDocument({
      file: fileOf(100),
      input,
      allowedOrigins: [ORIGIN],
      createDocument,
      hashFile: fakeHash,
      createBlockHasher,
      blocks,
      report: (_itemId, milestone) => modes.push(`${milestone.type}${"mode" in milestone ? ` ${milestone.mode}` : ""}`),
    });
    expect(modes).toEqual(["upload_started blocks", "upload_started single", "uploaded single"]);
  });

  it("treats an expired signature (403 AuthorizationFailure) as expiry: a fresh endpoint, still in blocks", async () => {
    answer = (req) =>
      req.url.searchParams.get("sig") === "1" ? { status: 403, body: "<Error><Code>AuthorizationFailure</Code></Error>" } : { status: 201 };
    const result = await run(fileOf(100));
    expect(created).toBe(2);
    expect(result).toMatchObject({ transfer: "blocks", itemId: "item-2", md5Hex: "5d41402abc4b2a76b9719d911017c592", replacedItemId: "item-1" });
    // Storage checked each block's MD5; the whole-file MD5 was only stored with the block list.
    expect(result.storageChecked).toBe("blocks");
  });
});
