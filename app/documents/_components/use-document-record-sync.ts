"use client";
import { useCallback, useEffect } from "react";
import { useRouter } from "next/navigation";
import { hasRecentDocuments } from "@/lib/document-history";
import { mayHoldReports } from "@/lib/documents/report-outbox-presence";

const loadDelivery = () => import("@/lib/documents/report-delivery");

/**
 * Keeps the server record of this user's documents complete from this browser: on page load and whenever the
 * browser comes back online it delivers the upload reports that could not be sent before, and it moves the old
 * browser-only list into the record once. Both modules load after the page, off its first-load JavaScript, and on
 * page load only when this browser holds something for them (an outbox database, an old list): a first visit, or
 * one with nothing to send, fetches neither (docs/page-weight.md).
 */
export function useDocumentRecordSync(userKey: string) {
  const router = useRouter();

  const deliverReports = useCallback(() => loadDelivery().then(({ reportOutboxFor }) => reportOutboxFor(userKey).flush()), [userKey]);
  /** The user gave up an interrupted upload: its document will never get the file. */
  const reportAbandoned = useCallback(
    (itemId: string) => void loadDelivery().then(({ reportOutboxFor }) => reportOutboxFor(userKey).report(itemId, { type: "abandoned" }), () => undefined),
    [userKey],
  );

  useEffect(() => {
    void mayHoldReports()
      .then((may) => (may ? deliverReports() : undefined))
      .catch(() => undefined);
    const onOnline = () => void deliverReports().catch(() => undefined);
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [deliverReports]);

  useEffect(() => {
    if (!hasRecentDocuments(localStorage, userKey)) return;
    void Promise.all([import("@/lib/documents/import-browser-history"), loadDelivery()])
      .then(([{ importBrowserHistory }, { postImport }]) => importBrowserHistory(localStorage, userKey, postImport))
      .then((imported) => imported && router.refresh())
      // No localStorage (disabled) or the modules did not load: the next visit tries again.
      .catch(() => undefined);
  }, [userKey, router]);

  return { deliverReports, reportAbandoned };
}
