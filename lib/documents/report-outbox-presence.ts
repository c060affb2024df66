/** The IndexedDB database the report outbox keeps undelivered reports in (report-outbox-store.ts). */
export const REPORT_OUTBOX_DB = "esign-document-reports";

/**
 * Whether this browser may hold undelivered upload reports: false only when the outbox's database was never created
 * here (no upload has reported from this browser) or there is no IndexedDB, so such a page load fetches no delivery
 * code (docs/page-weight.md). A browser without `indexedDB.databases()` answers true, and the outbox looks itself.
 */
export async function mayHoldReports(): Promise<boolean> {
  if (typeof indexedDB === "undefined") return false;
  if (typeof indexedDB.databases !== "function") return true;
  try {
    return (await indexedDB.databases()).some((db) => db.name === REPORT_OUTBOX_DB);
  } catch {
    return true;
  }
}
