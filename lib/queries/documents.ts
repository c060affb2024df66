"use client";
import { fetchJson } from "@/lib/api-client";
import type { CreateDocumentInput, CreateDocumentResult } from "@/lib/esign/schemas";
import { UPLOAD_RENEWAL_HEADER } from "@/lib/upload-renewal";

/**
 * Asks our route handler to create a document at the service; returns the ids and the upload endpoint.
 * Called once per upload attempt (and again for a fresh endpoint after a 403), so it is a plain function
 * for the upload flow rather than a cached query. A renewal says so, for the server's upload-renewal count.
 */
export function requestDocumentCreation(input: CreateDocumentInput, purpose: "create" | "renewal" = "create"): Promise<CreateDocumentResult> {
  return fetchJson<CreateDocumentResult>("/api/documents", {
    method: "POST",
    headers: { "content-type": "application/json", ...(purpose === "renewal" ? { [UPLOAD_RENEWAL_HEADER]: "1" } : {}) },
    body: JSON.stringify(input),
  });
}
