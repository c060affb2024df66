import { ApiError, rateLimitWaitMs } from "@/lib/api-client";
import type { ReportMilestone, ReportedTransfer, UploadMilestone } from "@/lib/documents/document-report";
import type { CreateDocumentInput, CreateDocumentResult } from "@/lib/esign/schemas";
import { createWorkerBlockHasher, type BlockHasher } from "@/lib/upload/block-hasher";
import { BlocksRefusedError, uploadInBlocks } from "@/lib/upload/block-upload";
import { shouldComputeMd5 } from "@/lib/upload/checksum-policy";
import { hashFileMd5InWorker } from "@/lib/upload/hash-in-worker";
import { md5Base64ToHex, type FileMd5 } from "@/lib/upload/md5";
import { putBlob } from "@/lib/upload/put-blob";
import { waitOrCancel } from "@/lib/upload/backoff";
import { retryTransient } from "@/lib/upload/retry-transient";
import { sasExpired, type BlockSettings, type ResumePoint } from "@/lib/upload/resume-point";
import { assertAllowedUploadEndpoint } from "@/lib/upload/storage-endpoint";
import { UploadError } from "@/lib/upload/upload-error";

export type UploadStage =
  | { stage: "hashing"; hashedBytes: number }
  | { stage: "creating" }
  /** `mode`: in staged blocks, one PUT, or one PUT because storage refused blocks. */
  | { stage: "uploading"; loadedBytes: number; mode: TransferMode }
  | { stage: "retrying"; attempt: number; delayMs: number }
  /** A 429 creating the document: waiting the Retry-After of the app's own budget or of the service's. */
  | { stage: "throttled"; delayMs: number; by: "app" | "service" }
  | { stage: "renewing" }
  /** A saved upload could not be resumed (its link expired): starting over with a new one. */
  | { stage: "restarting" };

export type TransferMode = "single" | "blocks" | "fallback";

/**
 * The abort reason of a pause: the upload stops as for a cancel, but it is not over (its staged blocks are
 * kept), so it is not reported as failed.
 */
export const UPLOAD_PAUSED = "upload-paused";

/** What the user sees once a document is stored: ids and facts, never the SAS URL. */
export type UploadedDocument = {
  name: string;
  doctype: string;
  itemId: string;
  fileId: string;
  subdocid: number;
  size: number;
  /** Hex MD5 of the stored blob, or null when neither we nor storage computed one. */
  md5Hex: string | null;
  /**
   * What storage checked against an MD5 of ours: the whole file (one PUT with `x-ms-blob-content-md5`),
   * each block (Put Block's `Content-MD5`; the whole-file MD5 of a block list is only stored), or nothing.
   */
  storageChecked: "file" | "blocks" | "none";
  /**
   * The document created first when its upload link was refused (403) and the document was created again
   * to get a new one (the spec has no other way): that item exists at the service without a file.
   */
  replacedItemId?: string;
  /** How the bytes went: one PUT, staged blocks, or one PUT after storage refused blocks. */
  transfer: TransferMode;
  uploadedAt: string;
};

export type UploadDocumentOptions = {
  file: File;
  input: CreateDocumentInput;
  allowedOrigins: readonly string[];
  /** Creates the document through our route handler and returns where to PUT the file. */
  createDocument: (input: CreateDocumentInput, purpose?: "create" | "renewal") => Promise<CreateDocumentResult>;
  onStage?: (stage: UploadStage) => void;
  signal?: AbortSignal;
  hashFile?: (file: File, onProgress: (hashedBytes: number) => void, signal?: AbortSignal) => Promise<FileMd5>;
  /** Where per-block MD5s are computed: a Web Worker by default (tests, which have none, pass their own). */
  createBlockHasher?: () => BlockHasher;
  /** When to stage blocks instead of one PUT; without it every file goes in one PUT. */
  blocks?: BlockSettings;
  /** Storage origins that refused blocks in this page's lifetime: they get the single PUT straight away. */
  blockRefusals?: Set<string>;
  /** Where an earlier, interrupted block upload of this same file got to (pause or reload). */
  resumeFrom?: ResumePoint;
  /** The document an interrupted upload of this file was going to, when its link has expired and been forgotten: the new one replaces it. */
  replacesItemId?: string;
  /** Called whenever a block upload can be resumed from a new point; null once there is nothing to resume. */
  onResumePoint?: (point: ResumePoint | null) => void;
  /** Told each milestone of the document for the app's record; returns at once, the upload never waits on it. */
  report?: ReportMilestone;
  /** Clock for the reported transfer duration; tests pass their own. */
  now?: () => number;
};

/**
 * The longest Retry-After a 429 may ask for and still be waited out in the page: the default budgets' windows are ten
 * minutes. A longer wait ends the upload with the error, which the user can retry later.
 */
export const MAX_THROTTLE_WAIT_MS = 10 * 60_000;

/**
 * Creates the document, waiting out each 429 for as long as its Retry-After says and then asking once more: nothing
 * is lost, and as uploads go one at a time, the page sends at most one request per wait — never a storm.
 */
async function createWithinBudget(
  create: () => Promise<CreateDocumentResult>,
  onStage: ((stage: UploadStage) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<CreateDocumentResult> {
  for (;;) {
    try {
      return await create();
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 429)) throw error;
      // No Retry-After is not expected from the app; a minute is the service's default wait too (lib/esign/http.ts).
      // A Retry-After of 0 or a past date (a proxy's 429) still waits the floor: never a loop of creations.
      const delayMs = rateLimitWaitMs(error.retryAfterSeconds ?? 60);
      if (delayMs > MAX_THROTTLE_WAIT_MS) throw error;
      onStage?.({ stage: "throttled", delayMs, by: error.code === "SERVICE_RATE_LIMITED" ? "service" : "app" });
      await waitOrCancel(delayMs, signal);
      onStage?.({ stage: "creating" });
    }
  }
}

/** How an upload that stopped ends in the record: cancelled by the user, or failed with the code the user was shown. */
function endMilestone(error: unknown, signal?: AbortSignal): UploadMilestone {
  if (signal?.aborted || (error instanceof UploadError && error.code === "UPLOAD_CANCELLED")) return { type: "abandoned" };
  return { type: "failed", errorCode: error instanceof UploadError || error instanceof ApiError ? error.code : "UNEXPECTED" };
}

const reportedTransfer = (mode: TransferMode): ReportedTransfer => (mode === "blocks" ? "blocks" : "single");

const hashInWorker = (file: File, onProgress: (hashed: number) => void, signal?: AbortSignal) =>
  hashFileMd5InWorker(file, { onProgress, signal });

/**
 * The whole upload of one file: MD5 (below the size threshold) → create the document → check the upload
 * host → PUT the file. A transient failure is retried with backoff; a 403 (expired or refused link) gets a
 * fresh endpoint once — by creating the document again, as the spec has no way to renew a SAS.
 */
export async function uploadDocument(options: UploadDocumentOptions): Promise<UploadedDocument> {
  const { file, input, allowedOrigins, createDocument, onStage, signal, hashFile = hashInWorker } = options;
  const { blocks, blockRefusals = new Set<string>(), onResumePoint, createBlockHasher = createWorkerBlockHasher } = options;
  const { report = () => {}, now = () => Date.now() } = options;
  let resumeFrom = options.resumeFrom;
  /** The item whose link expired while the upload was interrupted: the document created now replaces it. */
  let expiredItemId = options.replacesItemId;
  if (resumeFrom && sasExpired(resumeFrom.created.uploadendpoint)) {
    onResumePoint?.(null);
    onStage?.({ stage: "restarting" });
    expiredItemId = resumeFrom.created.itemId;
    resumeFrom = undefined;
  }
  /** The document the bytes are going to, once there is one: a failure from then on belongs to its record. */
  let itemId = resumeFrom?.created.itemId;
  let transferStartedAt = 0;

  const createAndCheck = async (purpose: "create" | "renewal" = "create") => {
    const created = await createWithinBudget(() => createDocument(input, purpose), onStage, signal);
    itemId = created.itemId;
    // The app could not write its own record in time: the browser's report is then what keeps the document.
    if (created.recorded === false) {
      const container = created.container || undefined;
      report(created.itemId, {
        type: "created",
        fileId: created.fileId,
        subdocid: created.subdocid,
        ...(container ? { container } : {}),
        name: input.name,
        doctype: input.doctype,
        size: file.size,
      });
    }
    if (signal?.aborted) throw new UploadError("UPLOAD_CANCELLED");
    return { created, url: assertAllowedUploadEndpoint(created.uploadendpoint, allowedOrigins) };
  };
  const started = (created: CreateDocumentResult, type: "upload_started" | "resumed", mode: ReportedTransfer) => {
    transferStartedAt = now();
    report(created.itemId, { type, mode, bytes: file.size });
  };

  try {
    // A restart after expiry is the same file (checked when it was picked again), so its MD5 still holds.
    const md5 =
      options.resumeFrom?.md5 ??
      (shouldComputeMd5(file.size) ? await hashFile(file, (hashedBytes) => onStage?.({ stage: "hashing", hashedBytes }), signal) : null);

    // A resume keeps the block size it started with: a staged block's index only means its bytes under that size.
    const transfer = async (created: CreateDocumentResult, url: URL, from?: Pick<ResumePoint, "staged" | "blockSize">) => {
      if (!blocks || file.size <= blocks.thresholdBytes || blockRefusals.has(url.origin)) {
        started(created, "upload_started", "single");
        return { mode: "single" as const, storedMd5: await putWithRetries({ url, file, md5Base64: md5?.base64, signal, onStage, mode: "single" }) };
      }
      const hasher = createBlockHasher();
      try {
        const blockSize = from?.blockSize ?? blocks.blockSize;
        const point: ResumePoint = { created, md5, blockSize, staged: from?.staged ?? [] };
        onResumePoint?.(point);
        started(created, from ? "resumed" : "upload_started", "blocks");
        await uploadInBlocks({
          url,
          file,
          blockSize,
          concurrency: blocks.concurrency,
          fileMd5Base64: md5?.base64,
          staged: point.staged,
          signal,
          hashBlock: hasher.hash,
          onProgress: (loadedBytes) => onStage?.({ stage: "uploading", loadedBytes, mode: "blocks" }),
          onRetry: (attempt, delayMs) => onStage?.({ stage: "retrying", attempt, delayMs }),
          onBlockStaged: (index) => {
            point.staged = [...point.staged, index];
            onResumePoint?.({ ...point });
          },
        });
        onResumePoint?.(null);
        // Azure computes no whole-blob MD5 for a block list; the blob carries ours when we sent one.
        return { mode: "blocks" as const, storedMd5: null };
      } catch (error) {
        if (!(error instanceof BlocksRefusedError)) throw error;
        onResumePoint?.(null);
        blockRefusals.add(url.origin);
        started(created, "upload_started", "single");
        return { mode: "fallback" as const, storedMd5: await putWithRetries({ url, file, md5Base64: md5?.base64, signal, onStage, mode: "fallback" }) };
      } finally {
        hasher.dispose();
      }
    };

    let created: CreateDocumentResult;
    let url: URL;
    if (resumeFrom) {
      created = resumeFrom.created;
      url = assertAllowedUploadEndpoint(created.uploadendpoint, allowedOrigins);
    } else {
      onStage?.({ stage: "creating" });
      ({ created, url } = await createAndCheck());
      if (expiredItemId) report(expiredItemId, { type: "replaced", replacedByItemId: created.itemId });
    }
    let sent: Awaited<ReturnType<typeof transfer>>;
    let replacedItemId: string | undefined;
    try {
      sent = await transfer(created, url, resumeFrom);
    } catch (error) {
      if (!(error instanceof UploadError && error.code === "UPLOAD_FORBIDDEN")) throw error;
      onResumePoint?.(null);
      onStage?.({ stage: "renewing" });
      replacedItemId = created.itemId;
      ({ created, url } = await createAndCheck("renewal"));
      report(replacedItemId, { type: "replaced", replacedByItemId: created.itemId });
      sent = await transfer(created, url);
    }

    const md5Hex = md5?.hex ?? (sent.storedMd5 ? md5Base64ToHex(sent.storedMd5) : null);
    report(created.itemId, {
      type: "uploaded",
      mode: reportedTransfer(sent.mode),
      bytes: file.size,
      ...(md5Hex ? { md5: md5Hex } : {}),
      durationMs: Math.max(0, Math.round(now() - transferStartedAt)),
    });
    return {
      name: input.name,
      doctype: input.doctype,
      itemId: created.itemId,
      fileId: created.fileId,
      subdocid: created.subdocid,
      size: file.size,
      md5Hex,
      storageChecked: sent.mode === "blocks" ? "blocks" : md5 !== null ? "file" : "none",
      ...(replacedItemId ? { replacedItemId } : {}),
      transfer: sent.mode,
      uploadedAt: new Date().toISOString(),
    };
  } catch (error) {
    // A pause is not an end: the upload continues from its staged blocks, and says so with "resumed".
    if (itemId && signal?.reason !== UPLOAD_PAUSED) report(itemId, endMilestone(error, signal));
    throw error;
  }
}

async function putWithRetries(args: {
  url: URL;
  file: File;
  md5Base64?: string;
  signal?: AbortSignal;
  onStage?: (stage: UploadStage) => void;
  mode: "single" | "fallback";
}): Promise<string | null> {
  const { onStage, mode, ...put } = args;
  const attempt = async () => {
    onStage?.({ stage: "uploading", loadedBytes: 0, mode });
    const result = await putBlob({ ...put, onProgress: (loadedBytes) => onStage?.({ stage: "uploading", loadedBytes, mode }) });
    return result.storedMd5Base64;
  };
  return retryTransient(attempt, (n, delayMs) => onStage?.({ stage: "retrying", attempt: n, delayMs }), put.signal);
}
