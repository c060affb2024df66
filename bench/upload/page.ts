// Runs in the benchmark's browser page: the app's own upload code (putBlob, MD5 worker), timed in-page.
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

/** MD5 on the main thread, without uploading: what the page would suffer without the worker. */
async function hashOnMainThread(): Promise<{ hashMs: number; hashStallMs: number }> {
  const stop = watchMainThread();
  const started = performance.now();
  await hashFileMd5(chosenFile());
  return { hashMs: performance.now() - started, hashStallMs: stop() };
}

Object.assign(window, { bench: { upload, hashOnMainThread } });
