import { reportOutboxFor } from "@/lib/documents/report-delivery";
import { requestDocumentCreation } from "@/lib/queries/documents";
import { hashBlockMd5 } from "@/lib/upload/put-block";
import type { BlockSettings } from "@/lib/upload/resume-point";
import { createResumeSaver } from "@/lib/upload/resume-saver";
import { isSameFile, type SavedUpload } from "@/lib/upload/saved-upload";
import { savedUploadStore } from "@/lib/upload/saved-upload-store";
import { uploadDocument, type UploadedDocument } from "@/lib/upload/upload-document";
import { UploadQueue } from "@/lib/upload/upload-queue";

/**
 * The upload machinery (queue, XHR PUT, block staging, MD5 worker and its wasm hasher, the report outbox) behind one module. The
 * documents page loads it with `import()` only once a file is chosen, so none of it is in the page's first load.
 */
export function createUploadQueue(options: {
  allowedOrigins: readonly string[];
  uploadBlocks: BlockSettings;
  userKey: string;
  onUploaded: (doc: UploadedDocument) => void;
}): UploadQueue {
  const { allowedOrigins, uploadBlocks, userKey, onUploaded } = options;
  // Origins that refused blocks: remembered for this page's lifetime, so later files go straight to one PUT.
  const blockRefusals = new Set<string>();
  const { report } = reportOutboxFor(userKey);
  return new UploadQueue(
    (file, input, onStage, signal, resume) =>
      uploadDocument({
        file,
        input,
        allowedOrigins,
        createDocument: requestDocumentCreation,
        onStage,
        signal,
        blocks: uploadBlocks,
        blockRefusals,
        resumeFrom: resume.from ?? undefined,
        replacesItemId: resume.replaces ?? undefined,
        onResumePoint: resume.onPoint,
        report,
      }),
    onUploaded,
    { saver: createResumeSaver(userKey, savedUploadStore), onAbandoned: (itemId) => report(itemId, { type: "abandoned" }) },
  );
}

/** Whether `file` is the one an interrupted upload was sending (size, last-modified, first block's MD5). */
export function isSavedFile(file: File, saved: SavedUpload): Promise<boolean> {
  return isSameFile(file, saved, hashBlockMd5);
}
