import { indexedDbMayExist } from "@/lib/browser/indexed-db-presence";

/** The IndexedDB database the report outbox keeps undelivered reports in (report-outbox-store.ts). */
export const REPORT_OUTBOX_DB = "esign-document-reports";

/**
 * Whether this browser may hold undelivered upload reports: false when no upload has reported from this browser, so
 * such a page load fetches no delivery code (docs/page-weight.md).
 */
export const mayHoldReports = (): Promise<boolean> => indexedDbMayExist(REPORT_OUTBOX_DB);
