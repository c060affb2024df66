"use client";
import { fetchJson } from "@/lib/api-client";
import type { CreateDocumentInput, CreateDocumentResult } from "@/lib/esign/schemas";

/**
 * Asks our route handler to create a document at the service; returns the ids and the upload endpoint.
 * Called once per upload attempt (and again for a fresh endpoint after a 403), so it is a plain function
 * for the upload flow rather than a cached query.
 */
export function requestDocumentCreation(input: CreateDocumentInput): Promise<CreateDocumentResult> {
  return fetchJson<CreateDocumentResult>("/api/documents", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
}
