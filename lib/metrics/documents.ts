import "server-only";
import { counter } from "@/lib/metrics/registry";

/** Records a document the service created for an upload (the bytes then go from the browser to storage). */
export function recordDocumentCreated(): void {
  counter({ name: "esign_documents_created_total", help: "Documents created at the service" }).inc();
}

/** Records a document created again because storage refused the first upload link (expired or refused SAS). */
export function recordUploadRenewal(): void {
  counter({ name: "esign_upload_renewals_total", help: "Upload links renewed by creating the document again after a 403 from storage" }).inc();
}
