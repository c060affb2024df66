import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { UploadMilestone } from "@/lib/documents/document-report";
import type { CreateDocumentResult } from "@/lib/esign/schemas";
import { UploadQueue } from "@/lib/upload/upload-queue";
import { uploadDocument } from "@/lib/upload/upload-document";

/**
 * How many events a large upload puts in its document's audit trail, measured by driving the real upload code
 * (the queue, uploadDocument, uploadInBlocks and its retries) with a stand-in XHR, a 2 GiB file that is only sizes
 * (no bytes), and the app's default block settings (8 MiB blocks above 64 MiB, 4 at once): the trail's cap
 * (DOCUMENT_EVENTS_MAX, 1,000) must stay far above what any real upload records. docs/documents.md has the figure.
 */
const ORIGIN = "http://127.0.0.1:4002";
const MIB = 1024 * 1024;
const FILE_BYTES = 2 * 1024 * MIB;
const BLOCKS = { thresholdBytes: 64 * MIB, blockSize: 8 * MIB, concurrency: 4 };

let blockPuts = 0;
/** Block PUTs that fail at the network (status 0) however often they are retried, until cleared. */
let failingBlocks = new Set<number>();

class FakeXhr {
  status = 0;
  responseText = "";
  upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private done = false;
  private href = "";
  open(_method: string, href: string) {
    this.href = href;
  }
  setRequestHeader() {}
  getResponseHeader() {
    return null;
  }
  abort() {
    if (this.done) return;
    this.done = true;
    queueMicrotask(() => this.onabort?.());
  }
  send(body: { size?: number } | null) {
    const url = new URL(this.href);
    const block = url.searchParams.get("blockid");
    const index = block === null ? -1 : Number(atob(block).split("-")[1]);
    if (block !== null) blockPuts += 1;
    setTimeout(() => {
      if (this.done) return;
      this.upload.onprogress?.({ loaded: body?.size ?? 0 });
      this.done = true;
      if (failingBlocks.has(index)) return this.onerror?.();
      this.status = 201;
      this.onload?.();
    }, 10);
  }
}

/** A File of `size` bytes that holds none: slices are Blobs of the right size, never read by the stand-in XHR. */
function sizedFile(size: number): File {
  const fake = {
    name: "scan-archive.zip",
    size,
    type: "application/zip",
    lastModified: 0,
    slice: (start = 0, end = size) => ({ size: Math.min(end, size) - start }),
  };
  return fake as unknown as File;
}

const createDocument = vi.fn(
  async (): Promise<CreateDocumentResult> => ({
    itemId: "10000000-0000-4000-8000-000000000001",
    fileId: "00000000-0000-4000-8000-000000000001",
    container: "documents",
    sas: "sig=x",
    url: `${ORIGIN}/devstoreaccount1/documents/f.zip`,
    subdocid: 1,
    uploadendpoint: `${ORIGIN}/devstoreaccount1/documents/f.zip?sig=1`,
    recorded: true,
  }),
);

beforeEach(() => {
  blockPuts = 0;
  failingBlocks = new Set();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the audit trail of a 2 GiB block upload", () => {
  it("records created, started, one 'resumed' per resume and uploaded: 23 events with 20 pauses, and 2 more per dropped connection", async () => {
    const reports: UploadMilestone["type"][] = [];
    const queue = new UploadQueue(
      (file, input, onStage, signal, resume) =>
        uploadDocument({
          file,
          input,
          allowedOrigins: [ORIGIN],
          createDocument,
          onStage,
          signal,
          blocks: BLOCKS,
          createBlockHasher: () => ({ hash: async (block: Blob) => `md5-${block.size}`, dispose: () => {} }),
          resumeFrom: resume.from ?? undefined,
          onResumePoint: resume.onPoint,
          report: (_itemId, milestone) => reports.push(milestone.type),
        }),
      () => {},
    );
    queue.enqueue([{ file: sizedFile(FILE_BYTES), input: { docid: null, name: "scan-archive.zip", doctype: "archive" } }]);
    const item = () => queue.getSnapshot()[0]!;
    const settle = async () => {
      for (let i = 0; i < 50; i++) await vi.advanceTimersByTimeAsync(10);
    };

    // 20 pauses, one after every 12 blocks staged, each followed by Resume.
    for (let pause = 0; pause < 20; pause++) {
      for (let i = 0; i < 1_000 && (item().resumePoint?.staged.length ?? 0) < 12 * (pause + 1); i++) await vi.advanceTimersByTimeAsync(10);
      queue.pause(item().id);
      await settle();
      expect(item().status).toBe("paused");
      queue.resume(item().id);
    }
    // Then the connection drops: one block fails through all its retries, the row fails, the user presses Retry.
    failingBlocks = new Set([250]);
    for (let i = 0; i < 200 && item().status !== "failed"; i++) await vi.advanceTimersByTimeAsync(1_000);
    expect(item().status).toBe("failed");
    failingBlocks = new Set();
    queue.retry(item().id);
    for (let i = 0; i < 200 && item().status !== "done"; i++) await vi.advanceTimersByTimeAsync(100);
    expect(item().status).toBe("done");

    // The create route records "created" itself (recorded: true): the trail is that plus every report.
    const trail = ["created", ...reports];
    console.log(`2 GiB block upload (256 blocks of 8 MiB, ${blockPuts} block PUTs), 20 pauses and one dropped connection: ${trail.length} events (${trail.join(", ")})`);
    expect(trail.filter((t) => t === "resumed")).toHaveLength(21);
    expect(trail.filter((t) => t === "failed")).toHaveLength(1);
    expect(trail).toEqual(["created", "upload_started", ...Array<string>(20).fill("resumed"), "failed", "resumed", "uploaded"]);
    expect(blockPuts).toBeGreaterThanOrEqual(256);
  });
});
