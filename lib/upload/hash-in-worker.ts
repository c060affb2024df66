import type { FileMd5 } from "@/lib/upload/md5";
import { UploadError } from "@/lib/upload/upload-error";

export type Md5WorkerReply =
  | { type: "progress"; hashed: number }
  | { type: "done"; md5: FileMd5 }
  | { type: "error"; message: string };

/** The bundler turns this `new URL(…, import.meta.url)` into the worker's own chunk. */
export function createMd5Worker(): Worker {
  return new Worker(new URL("./md5.worker.ts", import.meta.url), { type: "module" });
}

export type HashInWorkerOptions = {
  onProgress?: (hashedBytes: number) => void;
  signal?: AbortSignal;
  /** Where the worker comes from; the benchmark page passes its own bundle of md5.worker.ts. */
  createWorker?: () => Worker;
};

/**
 * The file's MD5, computed in a Web Worker so that hashing a large file never freezes the page.
 * The File is passed by reference (structured clone of a File does not copy its bytes).
 * Cancelling terminates the worker at once.
 */
export function hashFileMd5InWorker(file: Blob, { onProgress, signal, createWorker = createMd5Worker }: HashInWorkerOptions = {}): Promise<FileMd5> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadError("UPLOAD_CANCELLED"));
    const worker = createWorker();
    const finish = () => {
      worker.terminate();
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      finish();
      reject(new UploadError("UPLOAD_CANCELLED"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<Md5WorkerReply>) => {
      const reply = event.data;
      if (reply.type === "progress") return onProgress?.(reply.hashed);
      finish();
      if (reply.type === "done") resolve(reply.md5);
      else reject(new UploadError("CHECKSUM_FAILED"));
    };
    worker.onerror = () => {
      finish();
      reject(new UploadError("CHECKSUM_FAILED"));
    };
    worker.postMessage({ file });
  });
}
