import type { ReportedEventType } from "@/lib/documents/document-event-types";

/** How the bytes went: one PUT or staged blocks (a fallback from blocks to one PUT is a "single"). */
export type ReportedTransfer = "single" | "blocks";

/**
 * What the browser tells the app about a document's upload, as `POST /api/documents/{itemId}/events` takes it:
 * the facts of each reported event type. Facts only: ids, name, type, size, MD5, times, error codes. Never the
 * upload endpoint, its SAS or a token — they are credentials and expire, so no report type has a field for them.
 * Keyed by ReportedEventType: a reported type without its facts here fails typecheck.
 */
type MilestoneFacts = {
  created: { fileId: string; subdocid: number; container?: string; name: string; doctype: string; size: number };
  /** `bytes`: the file's size, so the record knows it even when the upload never finishes. */
  upload_started: { mode: ReportedTransfer; bytes: number };
  resumed: { mode: ReportedTransfer; bytes: number };
  uploaded: { mode: ReportedTransfer; bytes: number; md5?: string; durationMs: number };
  failed: { errorCode: string };
  /** The user cancelled it: the file was not stored, and nobody will send it to this document again. */
  abandoned: Record<never, never>;
  replaced: { replacedByItemId: string };
};

/** A milestone of one upload, before it is stamped with an id and a time. */
export type UploadMilestone = { [T in ReportedEventType]: { type: T } & MilestoneFacts[T] }[ReportedEventType];

/** A milestone as sent: `id` makes a retried send idempotent, `at` is when it happened in the browser. */
export type DocumentReport = UploadMilestone & { id: string; at: string };

/** Called by the upload at each milestone of the document `itemId`; must return at once (no network wait). */
export type ReportMilestone = (itemId: string, milestone: UploadMilestone) => void;

/** The most reports one request may carry (the route's limit). */
export const REPORTS_PER_REQUEST = 50;

/** The events route's body limit (16 KiB); the outbox makes each request fit it. */
export const REPORTS_BODY_MAX_BYTES = 16 * 1024;

/**
 * One document's reports, in order, cut into request bodies (`{"events":[…]}`) of at most REPORTS_PER_REQUEST
 * reports and REPORTS_BODY_MAX_BYTES bytes. A report is at most a few KiB (names are ≤ 255 characters), so each
 * batch holds at least one.
 */
export function batchReports<T extends { report: DocumentReport }>(entries: readonly T[]): T[][] {
  const encoder = new TextEncoder();
  const batches: T[][] = [];
  let batch: T[] = [];
  let bytes = '{"events":[]}'.length;
  for (const entry of entries) {
    const size = encoder.encode(JSON.stringify(entry.report)).byteLength + 1;
    if (batch.length > 0 && (batch.length === REPORTS_PER_REQUEST || bytes + size > REPORTS_BODY_MAX_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = '{"events":[]}'.length;
    }
    batch.push(entry);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * A random RFC 9562 version-4 UUID. `crypto.randomUUID` exists only in secure contexts; `getRandomValues` also
 * on a plain-http address (a LAN test), where an upload must still be reported.
 */
export function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
