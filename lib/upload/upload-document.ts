import type { CreateDocumentInput, CreateDocumentResult } from "@/lib/esign/schemas";
import { RETRY_DELAYS_MS, waitOrCancel } from "@/lib/upload/backoff";
import { shouldComputeMd5 } from "@/lib/upload/checksum-policy";
import { hashFileMd5InWorker } from "@/lib/upload/hash-in-worker";
import { md5Base64ToHex, type FileMd5 } from "@/lib/upload/md5";
import { putBlob } from "@/lib/upload/put-blob";
import { assertAllowedUploadEndpoint } from "@/lib/upload/storage-endpoint";
import { UploadError } from "@/lib/upload/upload-error";

export type UploadStage =
  | { stage: "hashing"; hashedBytes: number }
  | { stage: "creating" }
  | { stage: "uploading"; loadedBytes: number }
  | { stage: "retrying"; attempt: number; delayMs: number }
  | { stage: "renewing" };

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
  /** Whether storage checked the bytes against our MD5 (true) or only reported its own (false). */
  md5Verified: boolean;
  uploadedAt: string;
};

export type UploadDocumentOptions = {
  file: File;
  input: CreateDocumentInput;
  allowedOrigins: readonly string[];
  /** Creates the document through our route handler and returns where to PUT the file. */
  createDocument: (input: CreateDocumentInput) => Promise<CreateDocumentResult>;
  onStage?: (stage: UploadStage) => void;
  signal?: AbortSignal;
  hashFile?: (file: File, onProgress: (hashedBytes: number) => void, signal?: AbortSignal) => Promise<FileMd5>;
};

const hashInWorker = (file: File, onProgress: (hashed: number) => void, signal?: AbortSignal) =>
  hashFileMd5InWorker(file, { onProgress, signal });

/**
 * The whole upload of one file: MD5 (below the size threshold) → create the document → check the upload
 * host → PUT the file. A transient failure is retried with backoff; a 403 (expired or refused link) gets a
 * fresh endpoint once — by creating the document again, as the spec has no way to renew a SAS.
 */
export async function uploadDocument(options: UploadDocumentOptions): Promise<UploadedDocument> {
  const { file, input, allowedOrigins, createDocument, onStage, signal, hashFile = hashInWorker } = options;
  const md5 = shouldComputeMd5(file.size)
    ? await hashFile(file, (hashedBytes) => onStage?.({ stage: "hashing", hashedBytes }), signal)
    : null;

  const createAndCheck = async () => {
    const created = await createDocument(input);
    if (signal?.aborted) throw new UploadError("UPLOAD_CANCELLED");
    return { created, url: assertAllowedUploadEndpoint(created.uploadendpoint, allowedOrigins) };
  };
  const put = (url: URL) =>
    putWithRetries({ url, file, md5Base64: md5?.base64, signal, onStage });

  onStage?.({ stage: "creating" });
  let { created, url } = await createAndCheck();
  let storedMd5: string | null;
  try {
    storedMd5 = (await put(url)).storedMd5Base64;
  } catch (error) {
    if (!(error instanceof UploadError && error.code === "UPLOAD_FORBIDDEN")) throw error;
    onStage?.({ stage: "renewing" });
    ({ created, url } = await createAndCheck());
    storedMd5 = (await put(url)).storedMd5Base64;
  }

  return {
    name: input.name,
    doctype: input.doctype,
    itemId: created.itemId,
    fileId: created.fileId,
    subdocid: created.subdocid,
    size: file.size,
    md5Hex: md5?.hex ?? (storedMd5 ? md5Base64ToHex(storedMd5) : null),
    md5Verified: md5 !== null,
    uploadedAt: new Date().toISOString(),
  };
}

async function putWithRetries(args: {
  url: URL;
  file: File;
  md5Base64?: string;
  signal?: AbortSignal;
  onStage?: (stage: UploadStage) => void;
}) {
  const { onStage, ...put } = args;
  for (let attempt = 0; ; attempt++) {
    onStage?.({ stage: "uploading", loadedBytes: 0 });
    try {
      return await putBlob({ ...put, onProgress: (loadedBytes) => onStage?.({ stage: "uploading", loadedBytes }) });
    } catch (error) {
      const delayMs = RETRY_DELAYS_MS[attempt];
      if (!(error instanceof UploadError && error.transient) || delayMs === undefined) throw error;
      onStage?.({ stage: "retrying", attempt: attempt + 1, delayMs });
      await waitOrCancel(delayMs, put.signal);
    }
  }
}
