import { requestDocumentCreation } from "@/lib/queries/documents";
import { uploadDocument, type UploadedDocument } from "@/lib/upload/upload-document";
import { UploadQueue } from "@/lib/upload/upload-queue";

/**
 * The upload machinery (queue, XHR PUT, MD5 worker and its wasm hasher) behind one function. The documents
 * page loads this module with `import()` only once a file is chosen, so none of it is in the page's first load.
 */
export function createUploadQueue(allowedOrigins: readonly string[], onUploaded: (doc: UploadedDocument) => void): UploadQueue {
  return new UploadQueue(
    (file, input, onStage, signal) => uploadDocument({ file, input, allowedOrigins, createDocument: requestDocumentCreation, onStage, signal }),
    onUploaded,
  );
}
