// Runs in the benchmark's browser page: the app's own upload code (putBlob, uploadInBlocks, MD5 worker), timed in-page.
import { createWorkerBlockHasher } from "@/lib/upload/block-hasher";
import { uploadInBlocks } from "@/lib/upload/block-upload";
import { hashFileMd5 } from "@/lib/upload/md5";
import { hashFileMd5InWorker } from "@/lib/upload/hash-in-worker";
import { putBlob } from "@/lib/upload/put-blob";

export type BrowserRun = {
  hashMs: number | null;
  uploadMs: number;
  /** Longest gap between 10 ms timer ticks on the main thread while hashing: how frozen the page was. */
  hashStallMs: number | null;
};

/** Longest gap between ticks of a 10 ms interval, from the call to the returned stop(). */
function watchMainThread() {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    // A thread that never yielded never ran the timer: the gap up to now counts too.
    return Math.round(Math.max(longest, performance.now() - last));
  };
}

function chosenFile(): File {
  const file = document.querySelector<HTMLInputElement>("#file")?.files?.[0];
  if (!file) throw new Error("no file chosen");
  return file;
}

async function upload(url: string, md5: "none" | "worker"): Promise<BrowserRun> {
  const file = chosenFile();
  let hashMs: number | null = null;
  let hashStallMs: number | null = null;
  let md5Base64: string | undefined;
  if (md5 === "worker") {
    const stop = watchMainThread();
    const started = performance.now();
    md5Base64 = (await hashFileMd5InWorker(file, { createWorker: () => new Worker("/md5.worker.js", { type: "module" }) })).base64;
    hashMs = performance.now() - started;
    hashStallMs = stop();
  }
  const started = performance.now();
  await putBlob({ url: new URL(url), file, md5Base64 });
  return { hashMs, uploadMs: performance.now() - started, hashStallMs };
}

const BLOCK_SIZE = 8 * 1024 * 1024;
const benchWorker = () => new Worker("/md5.worker.js", { type: "module" });

/**
 * Block mode as the app runs it (8 MiB blocks, per-block MD5 in the worker, stall guard), at the given
 * concurrency. `retries` counts blocks re-sent after a drop or a stall: none is expected here.
 */
async function uploadBlocks(url: string, concurrency: number): Promise<{ uploadMs: number; retries: number }> {
  const hasher = createWorkerBlockHasher(benchWorker);
  let retries = 0;
  const started = performance.now();
  try {
    await uploadInBlocks({ url: new URL(url), file: chosenFile(), blockSize: BLOCK_SIZE, concurrency, hashBlock: hasher.hash, onRetry: () => retries++ });
    return { uploadMs: performance.now() - started, retries };
  } finally {
    hasher.dispose();
  }
}

/**
 * Counts the bytes every XHR of the page sends, and once half the file is on its way, drops the
 * connection of the request that has sent the most (aborts it and reports it as a network error, as a
 * dropped connection shows). The app's retry then decides what is sent again.
 */
function installDropAtHalf(fileSize: number) {
  const live = new Map<DroppableXhr, number>();
  let finished = 0;
  let dropped = false;
  const total = () => finished + [...live.values()].reduce((a, b) => a + b, 0);
  class DroppableXhr extends XMLHttpRequest {
    private drop = false;
    constructor() {
      super();
      this.upload.addEventListener("progress", (event) => {
        live.set(this, event.loaded);
        if (!dropped && total() >= fileSize / 2) {
          dropped = true;
          const [victim] = [...live.entries()].sort((a, b) => b[1] - a[1])[0]!;
          victim.drop = true;
          victim.abort();
        }
      });
      this.addEventListener("loadend", () => {
        finished += live.get(this) ?? 0;
        live.delete(this);
      });
    }
    set onabort(handler: ((this: XMLHttpRequest, ev: ProgressEvent) => unknown) | null) {
      // A dropped connection reaches the app as an error (status 0), not as its own cancel.
      super.onabort = (event) => (this.drop ? this.onerror?.call(this, event) : handler?.call(this, event));
    }
  }
  const original = window.XMLHttpRequest;
  window.XMLHttpRequest = DroppableXhr;
  return { bytesSent: total, restore: () => (window.XMLHttpRequest = original) };
}

/** One upload (single PUT or blocks at concurrency 4) with a drop at 50 %: bytes sent beyond the file's size. */
async function resentAfterDrop(url: string, mode: "single" | "blocks"): Promise<{ resentBytes: number }> {
  const file = chosenFile();
  const counter = installDropAtHalf(file.size);
  try {
    const retry = async (send: () => Promise<unknown>) => {
      // The app's backoff would wait 1 s; the figure of interest is the bytes, so retry at once.
      for (;;) {
        try {
          return await send();
        } catch (error) {
          if ((error as { code?: string }).code !== "UPLOAD_UNREACHABLE") throw error;
        }
      }
    };
    if (mode === "single") await retry(() => putBlob({ url: new URL(url), file }));
    else {
      const hasher = createWorkerBlockHasher(benchWorker);
      try {
        await uploadInBlocks({ url: new URL(url), file, blockSize: BLOCK_SIZE, concurrency: 4, hashBlock: hasher.hash });
      } finally {
        hasher.dispose();
      }
    }
    return { resentBytes: counter.bytesSent() - file.size };
  } finally {
    counter.restore();
  }
}

/** MD5 on the main thread, without uploading: what the page would suffer without the worker. */
async function hashOnMainThread(): Promise<{ hashMs: number; hashStallMs: number }> {
  const stop = watchMainThread();
  const started = performance.now();
  await hashFileMd5(chosenFile());
  return { hashMs: performance.now() - started, hashStallMs: stop() };
}

Object.assign(window, { bench: { upload, uploadBlocks, resentAfterDrop, hashOnMainThread } });
