import { blockId, blockRange, planBlocks } from "@/lib/upload/block-layout";
import { hashBlockMd5, putBlock, putBlockList } from "@/lib/upload/put-block";
import { retryTransient } from "@/lib/upload/retry-transient";
import { UploadError } from "@/lib/upload/upload-error";

export type BlockUploadOptions = {
  /** The checked upload endpoint (blob URL with its SAS). */
  url: URL;
  file: Blob;
  blockSize: number;
  /** Blocks in flight at once; stays under the browser's six connections per host. */
  concurrency: number;
  /** Base64 MD5 of the whole file, stored on the blob at commit, when it was computed. */
  fileMd5Base64?: string;
  /** Block indexes an earlier attempt already staged on this same endpoint: not sent again. */
  staged?: Iterable<number>;
  onBlockStaged?: (index: number) => void;
  /** Bytes of staged blocks plus bytes of blocks in flight. */
  onProgress?: (loaded: number) => void;
  onRetry?: (attempt: number, delayMs: number) => void;
  signal?: AbortSignal;
  /** Base64 MD5 of one block; the app hashes in a Web Worker (block-hasher.ts) to keep the page free. */
  hashBlock?: (block: Blob) => Promise<string>;
  /** For every Put Block and the Put Block List; defaults to xhrPut's STALL_TIMEOUT_MS; tests shorten it. */
  stallTimeoutMs?: number;
};

/** Storage refused staging blocks before any was accepted (a SAS without `w`, or no block support). */
export class BlocksRefusedError extends Error {
  constructor(readonly refusal: UploadError) {
    super("Storage refused staged blocks");
    this.name = "BlocksRefusedError";
  }
}

// These 403s say the signature itself is expired or wrong — a fresh endpoint helps, a single PUT would not.
const SIGNATURE_FAILURES = new Set(["AuthenticationFailed", "AuthorizationFailure"]);

function isBlockRefusal(error: unknown): error is UploadError {
  if (!(error instanceof UploadError)) return false;
  if (error.code === "UPLOAD_REJECTED") return true;
  return error.code === "UPLOAD_FORBIDDEN" && !SIGNATURE_FAILURES.has(error.storageCode ?? "");
}

/**
 * Uploads a file as staged blocks (Put Block, a few in parallel, each with its Content-MD5), then commits
 * them with Put Block List. A failed block is retried alone with backoff; the others keep going. Nothing
 * is visible as a blob until the commit, so an abort leaves no blob (staged blocks expire at storage).
 */
export async function uploadInBlocks(options: BlockUploadOptions): Promise<void> {
  const { url, file, concurrency, signal, hashBlock = hashBlockMd5, stallTimeoutMs } = options;
  const { blockSize, count } = planBlocks(file.size, options.blockSize);
  const ids = Array.from({ length: count }, (_, index) => blockId(url.pathname, index));
  const staged = new Set(options.staged);
  const pending = ids.map((_, index) => index).filter((index) => !staged.has(index));
  const length = (index: number) => {
    const range = blockRange(index, file.size, blockSize);
    return range.end - range.start;
  };
  let stagedBytes = [...staged].reduce((sum, index) => sum + length(index), 0);
  const inFlight = new Map<number, number>();
  const report = () => options.onProgress?.(stagedBytes + [...inFlight.values()].reduce((a, b) => a + b, 0));

  // One failure stops the other blocks in flight; the caller's signal does too.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });

  const stageBlock = async (index: number) => {
    const { start, end } = blockRange(index, file.size, blockSize);
    const block = file.slice(start, end);
    // A hash that timed out (block-hasher.ts) is transient like a stalled PUT: retried alone.
    const md5Base64 = await retryTransient(() => hashBlock(block), (attempt, delayMs) => options.onRetry?.(attempt, delayMs), stop.signal);
    const send = () => {
      inFlight.set(index, 0);
      return putBlock({
        url,
        blockId: ids[index]!,
        block,
        md5Base64,
        signal: stop.signal,
        stallTimeoutMs,
        onProgress: (loaded) => {
          inFlight.set(index, loaded);
          report();
        },
      }).catch((error: unknown) => {
        // A dropped block's bytes must be sent again: they no longer count (the bar itself never goes back).
        inFlight.delete(index);
        report();
        throw error;
      });
    };
    await retryTransient(send, (attempt, delayMs) => options.onRetry?.(attempt, delayMs), stop.signal);
    inFlight.delete(index);
    staged.add(index);
    stagedBytes += end - start;
    report();
    options.onBlockStaged?.(index);
  };
  const worker = async () => {
    for (let index = pending.shift(); index !== undefined; index = pending.shift()) await stageBlock(index);
  };

  try {
    report();
    await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
    await retryTransient(
      () => putBlockList({ url, blockIds: ids, fileMd5Base64: options.fileMd5Base64, signal: stop.signal, stallTimeoutMs }),
      (attempt, delayMs) => options.onRetry?.(attempt, delayMs),
      stop.signal,
    );
  } catch (error) {
    stop.abort();
    if (signal?.aborted) throw new UploadError("UPLOAD_CANCELLED");
    if (staged.size === 0 && isBlockRefusal(error)) throw new BlocksRefusedError(error);
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
