import { UploadError } from "@/lib/upload/upload-error";

/** Delays before the 1st, 2nd, 3rd retry of a transient failure; 7 s in all before we give up. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

/** Waits `ms`, or rejects with UPLOAD_CANCELLED as soon as the signal aborts. */
export function waitOrCancel(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadError("UPLOAD_CANCELLED"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new UploadError("UPLOAD_CANCELLED"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
