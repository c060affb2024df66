import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createWorkerBlockHasher } from "@/lib/upload/block-hasher";
import { putBlob } from "@/lib/upload/put-blob";
import { putBlockList } from "@/lib/upload/put-block";
import { STALL_TIMEOUT_MS, xhrPut } from "@/lib/upload/xhr-put";

/** An XHR driven by hand: the test decides when bytes move and when the answer comes. */
class ManualXhr {
  static last: ManualXhr;
  status = 0;
  responseText = "";
  aborted = false;
  upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    ManualXhr.last = this;
  }
  open() {}
  setRequestHeader() {}
  getResponseHeader() {
    return null;
  }
  send() {}
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
}

describe("xhrPut stall guard", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("XMLHttpRequest", ManualXhr);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("keeps a slow PUT that still moves, and cuts it with a transient UPLOAD_STALLED once it stops moving", async () => {
    const put = xhrPut({ url: "http://s/b", headers: {}, body: "x", stallTimeoutMs: 1000 });
    const outcome = put.catch((error: unknown) => error);
    const xhr = ManualXhr.last;
    // Five progress events 600 ms apart: 3 s in all, three times the stall time, yet never 1 s of silence.
    for (let i = 1; i <= 5; i++) {
      await vi.advanceTimersByTimeAsync(600);
      xhr.upload.onprogress?.({ loaded: i });
    }
    expect(xhr.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(999);
    expect(xhr.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(xhr.aborted).toBe(true);
    expect(await outcome).toMatchObject({ code: "UPLOAD_STALLED", transient: true });
  });

  it("stops watching once storage answers", async () => {
    const put = xhrPut({ url: "http://s/b", headers: {}, body: "x", stallTimeoutMs: 1000 });
    const xhr = ManualXhr.last;
    xhr.status = 201;
    xhr.onload?.();
    await put;
    await vi.advanceTimersByTimeAsync(5000);
    expect(xhr.aborted).toBe(false);
  });

  it("guards the single PUT and Put Block List too, with no stall time given by the caller", async () => {
    const silent = [
      () => putBlob({ url: new URL("http://s/b?sig=x"), file: new Blob(["x"]) }),
      () => putBlockList({ url: new URL("http://s/b?sig=x"), blockIds: ["AAAA"] }),
    ];
    for (const start of silent) {
      const outcome = start().catch((error: unknown) => error);
      const xhr = ManualXhr.last;
      await vi.advanceTimersByTimeAsync(STALL_TIMEOUT_MS - 1);
      expect(xhr.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(xhr.aborted).toBe(true);
      expect(await outcome).toMatchObject({ code: "UPLOAD_STALLED", transient: true });
    }
  });

  it("still reports the caller's own abort as a cancel, not a stall", async () => {
    const controller = new AbortController();
    const put = xhrPut({ url: "http://s/b", headers: {}, body: "x", stallTimeoutMs: 1000, signal: controller.signal });
    controller.abort();
    await expect(put).rejects.toMatchObject({ code: "UPLOAD_CANCELLED" });
  });
});

/** A worker that answers only when the test says so, recording what it was sent. */
class FakeWorker {
  posted: Blob[] = [];
  terminated = false;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  postMessage(message: { file: Blob }) {
    this.posted.push(message.file);
  }
  terminate() {
    this.terminated = true;
  }
  reply(base64: string) {
    this.onmessage?.({ data: { type: "done", md5: { base64, hex: "" } } });
  }
}

describe("worker block hasher", () => {
  it("hashes one block at a time in a single worker, each block getting its own MD5", async () => {
    const workers: FakeWorker[] = [];
    const hasher = createWorkerBlockHasher(() => {
      workers.push(new FakeWorker());
      return workers.at(-1)! as unknown as Worker;
    });
    const a = new Blob(["a"]);
    const b = new Blob(["bb"]);
    const first = hasher.hash(a);
    const second = hasher.hash(b);
    await Promise.resolve();
    expect(workers[0]!.posted).toEqual([a]);
    workers[0]!.onmessage?.({ data: { type: "progress", hashed: 1 } });
    workers[0]!.reply("md5-a");
    expect(await first).toBe("md5-a");
    await vi.waitFor(() => expect(workers[0]!.posted).toEqual([a, b]));
    workers[0]!.reply("md5-b");
    expect(await second).toBe("md5-b");
    expect(workers).toHaveLength(1);
  });

  it("gives up on a block whose hash never comes back: a transient UPLOAD_STALLED, and a fresh worker for the retry", async () => {
    vi.useFakeTimers();
    try {
      const workers: FakeWorker[] = [];
      const hasher = createWorkerBlockHasher(() => {
        workers.push(new FakeWorker());
        return workers.at(-1)! as unknown as Worker;
      }, 1000);
      const stuck = hasher.hash(new Blob(["a"])).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(999);
      expect(workers[0]!.terminated).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await stuck).toMatchObject({ code: "UPLOAD_STALLED", transient: true });
      expect(workers[0]!.terminated).toBe(true);
      const retried = hasher.hash(new Blob(["a"]));
      await vi.advanceTimersByTimeAsync(0);
      workers[1]!.reply("md5-a");
      expect(await retried).toBe("md5-a");
    } finally {
      vi.useRealTimers();
    }
  });

  it("on dispose ends the worker and rejects the hash still waiting, so no block waits forever", async () => {
    const worker = new FakeWorker();
    const hasher = createWorkerBlockHasher(() => worker as unknown as Worker);
    const waiting = hasher.hash(new Blob(["a"]));
    await vi.waitFor(() => expect(worker.posted).toHaveLength(1));
    hasher.dispose();
    await expect(waiting).rejects.toMatchObject({ code: "UPLOAD_CANCELLED" });
    expect(worker.terminated).toBe(true);
    await expect(hasher.hash(new Blob(["b"]))).rejects.toMatchObject({ code: "UPLOAD_CANCELLED" });
  });
});
