import { createMd5Worker, type Md5WorkerReply } from "@/lib/upload/hash-in-worker";
import { UploadError } from "@/lib/upload/upload-error";

/**
 * How long one block's MD5 may take before the worker is replaced and the hash retried. An 8 MiB block
 * hashes in well under a second (the worker does 180–320 MiB/s in bench:upload); in the benchmark a block
 * read sometimes never finished at all, which without this bound hung the upload as surely as a stalled XHR.
 */
export const BLOCK_HASH_TIMEOUT_MS = 30_000;

export type BlockHasher = {
  /** Base64 MD5 of one block, for its Content-MD5. */
  hash: (block: Blob) => Promise<string>;
  /**
   * Ends the worker; a hash still waiting rejects with UPLOAD_CANCELLED (never left pending). A hash that
   * takes longer than the timeout rejects with the transient UPLOAD_STALLED.
   */
  dispose: () => void;
};

/**
 * Per-block MD5s computed one block at a time in one Web Worker kept for the whole upload. On the main
 * thread, each block in flight ran its own stream reader (the renderer grew by MiBs per block in flight,
 * and the page lost frames); here one 1 MiB read buffer serves every block, and hashing (several hundred
 * MiB/s) stays well ahead of the upload, so doing one block at a time costs nothing.
 */
export function createWorkerBlockHasher(createWorker: () => Worker = createMd5Worker, timeoutMs = BLOCK_HASH_TIMEOUT_MS): BlockHasher {
  let worker: Worker | null = null;
  let disposed = false;
  let current: { reject: (error: unknown) => void } | null = null;
  let chain: Promise<unknown> = Promise.resolve();

  const hashOne = (block: Blob) =>
    new Promise<string>((resolve, reject) => {
      if (disposed) return reject(new UploadError("UPLOAD_CANCELLED"));
      const running = (worker ??= createWorker());
      current = { reject };
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        current = null;
        settle();
      };
      // A read that never ends leaves the worker busy for good: drop it, and a retry gets a fresh one.
      const timer = setTimeout(() => {
        running.terminate();
        if (worker === running) worker = null;
        finish(() => reject(new UploadError("UPLOAD_STALLED")));
      }, timeoutMs);
      running.onmessage = (event: MessageEvent<Md5WorkerReply>) => {
        const reply = event.data;
        if (reply.type === "progress") return;
        if (reply.type === "done") finish(() => resolve(reply.md5.base64));
        else finish(() => reject(new UploadError("CHECKSUM_FAILED")));
      };
      running.onerror = () => finish(() => reject(new UploadError("CHECKSUM_FAILED")));
      running.postMessage({ file: block });
    });

  return {
    // The worker answers one message at a time without a request id: so one block at a time.
    hash: (block) => {
      const next = chain.then(() => hashOne(block));
      chain = next.catch(() => {});
      return next;
    },
    dispose: () => {
      disposed = true;
      worker?.terminate();
      current?.reject(new UploadError("UPLOAD_CANCELLED"));
      current = null;
    },
  };
}
