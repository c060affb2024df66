import "server-only";
import type { DocumentsExport } from "@/lib/documents/document-records";

const CSV_COLUMNS = [
  "item_id",
  "file_id",
  "subdocid",
  "name",
  "doctype",
  "status",
  "size",
  "md5",
  "created_at",
  "removed_at",
  "event_type",
  "event_at",
  "device",
  "request_id",
  "details",
] as const;

/**
 * One CSV cell. A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: names are typed by users)
 * gets a leading apostrophe; quotes are doubled and any cell with a separator, quote or line break is quoted.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The export as CSV: one row per event, each with its document's facts (a document without events gets one row). */
export function documentsExportCsv({ documents, events }: DocumentsExport): string {
  const byItem = new Map<string, DocumentsExport["events"]>();
  for (const e of events) {
    const trail = byItem.get(e.itemId);
    if (trail) trail.push(e);
    else byItem.set(e.itemId, [e]);
  }
  const rows: (string | number | null)[][] = [];
  for (const doc of documents) {
    const facts = [doc.itemId, doc.fileId, doc.subdocid, doc.name, doc.doctype, doc.status, doc.size, doc.md5, doc.createdAt, doc.removedAt];
    const trail = byItem.get(doc.itemId) ?? [];
    if (trail.length === 0) rows.push([...facts, null, null, null, null, null]);
    for (const e of trail) rows.push([...facts, e.type, e.at, e.device, e.requestId, Object.keys(e.details).length ? JSON.stringify(e.details) : null]);
  }
  return [CSV_COLUMNS.join(","), ...rows.map((row) => row.map(csvCell).join(","))].join("\r\n") + "\r\n";
}

/** The export as JSON: the records and their trails, as kept. */
export function documentsExportJson(data: DocumentsExport, exportedAt: Date): string {
  return JSON.stringify({ exportedAt: exportedAt.toISOString(), ...data }, null, 2);
}
