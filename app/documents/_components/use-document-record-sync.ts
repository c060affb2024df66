"use client";
import { useCallback, useEffect } from "react";
import { useRouter } from "next/navigation";
import { fetchJson } from "@/lib/api-client";

const loadDelivery = () => import("@/lib/documents/report-delivery");

/**
 * Keeps the server record of this user's documents complete from this browser: on page load and whenever the
 * browser comes back online it delivers the upload reports that could not be sent before, and it moves the old
 * browser-only list into the record once. Both modules load after the page, off its first-load JavaScript.
 */
export function useDocumentRecordSync(userKey: string) {
  const router = useRouter();

  const deliverReports = useCallback(() => loadDelivery().then(({ reportOutboxFor }) => reportOutboxFor(userKey).flush()), [userKey]);

  useEffect(() => {
    void deliverReports().catch(() => undefined);
    const onOnline = () => void deliverReports().catch(() => undefined);
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [deliverReports]);

  useEffect(() => {
    void import("@/lib/documents/import-browser-history")
      .then(({ importBrowserHistory }) =>
        importBrowserHistory(localStorage, userKey, (documents) =>
          fetchJson("/api/documents/import", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ documents }),
          }),
        ),
      )
      .then((imported) => imported && router.refresh())
      // Not taken (the database is down, say): the list stays in this browser and the next visit tries again.
      .catch(() => undefined);
  }, [userKey, router]);

  return { deliverReports };
}
