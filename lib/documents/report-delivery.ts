import { ApiError, fetchJson } from "@/lib/api-client";
import type { RecentDocument } from "@/lib/document-history";
import type { DocumentReport } from "@/lib/documents/document-report";
import { ReportOutbox, type SendOutcome } from "@/lib/documents/report-outbox";
import { indexedDbOutboxStore } from "@/lib/documents/report-outbox-store";

/** How an answer from the events or import route settles what it was sent. */
export function outcomeOf(error: unknown): SendOutcome {
  if (!(error instanceof ApiError)) return "retry";
  // The user's budget at the app is spent: nothing goes out until its wait is over (a 429 without one, from a
  // proxy, is retried on the document's own schedule below).
  if (error.status === 429 && error.retryAfterSeconds !== undefined) return { retryAfterMs: error.retryAfterSeconds * 1000 };
  // Unreachable, 5xx (the database down: 503), rate-limited, or signed out: the same reports succeed later.
  if (error.retryable || error.needsSignIn || error.status === 429) return "retry";
  // Invalid, or not this user's document: sending them again cannot change the answer.
  return "refused";
}

/** Sends one document's reports to `POST /api/documents/{itemId}/events`; `signal` aborts it (the outbox's timeout). */
export async function postReports(itemId: string, reports: DocumentReport[], signal?: AbortSignal): Promise<SendOutcome> {
  try {
    await fetchJson(`/api/documents/${encodeURIComponent(itemId)}/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ events: reports }),
      // Lets the last report of a page that is being closed still go out.
      keepalive: true,
      signal,
    });
    return "delivered";
  } catch (error) {
    return outcomeOf(error);
  }
}

/** Sends the old browser-only list to `POST /api/documents/import` (lib/documents/import-browser-history.ts). */
export async function postImport(documents: RecentDocument[]): Promise<SendOutcome> {
  try {
    await fetchJson("/api/documents/import", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documents }),
    });
    return "delivered";
  } catch (error) {
    return outcomeOf(error);
  }
}

const outboxes = new Map<string, ReportOutbox>();

/** The page's one outbox for this user: the upload reports into it, the page flushes it on load and `online`. */
export function reportOutboxFor(userKey: string): ReportOutbox {
  let outbox = outboxes.get(userKey);
  if (!outbox) {
    outbox = new ReportOutbox(userKey, indexedDbOutboxStore, postReports);
    outboxes.set(userKey, outbox);
  }
  return outbox;
}
