import { createMd5Worker, type Md5WorkerReply } from "@/lib/upload/hash-in-worker";
import { UploadError } from "@/lib/upload/upload-error";

export type BlockHasher = {
  /** Base64 MD5 of one block, for its Content-MD5. */
  hash: (block: Blob) => Promise<string>;
  /** Ends the worker; a hash still waiting rejects with UPLOAD_CANCELLED (never left pending). */
  dispose: () => void;
};

/**
 * Per-block MD5s computed one block at a time in one Web Worker kept for the whole upload. On the main
 * thread, each block in flight ran its own stream reader (the renderer grew by MiBs per block in flight,
 * and the page lost frames); here one 1 MiB read buffer serves every block, and hashing (several hundred
 * MiB/s) stays well ahead of the upload, so doing one block at a time costs nothing.
 */
export function createWorkerBlockHasher(createWorker: () => Worker = createMd5Worker): BlockHasher {
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
        current = null;
        settle();
      };
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
