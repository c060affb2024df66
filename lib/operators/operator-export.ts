import "server-only";
import { csvFile, csvLinesOf, jsonFile, type ExportFormat } from "@/lib/exports/export-text";
import { operatorRecords, type OperatorRecords } from "@/lib/operators/operator-records";
import type { OperatorExportRow } from "@/lib/operators/records/export-period-batches";
import type { OperatorAccessEntry, OperatorPeriod } from "@/lib/operators/types";

const DOCUMENT_COLUMNS = ["created_at", "user_key", "email", "item_id", "name", "doctype", "status", "size", "md5", "last_error_code", "updated_at", "removed_at"] as const;
const ACCESS_COLUMNS = ["id", "at", "operator_email", "operator_user_key", "action", "subject_user_key", "subject_email", "item_id", "detail"] as const;

const documentCells = (row: OperatorExportRow) => [row.createdAt, row.userKey, row.email, row.itemId, row.name, row.doctype, row.status, row.size, row.md5, row.lastErrorCode, row.updatedAt, row.removedAt];
const accessCells = (row: OperatorAccessEntry) => [row.id, row.at, row.operatorEmail, row.operatorUserKey, row.action, row.subjectUserKey, row.subjectEmail, row.itemId, row.detail];

/**
 * The documents created in the period across users (oldest first, with the user's verified email, status and last
 * error code) as CSV (with BOM) or JSON `{ exportedAt, from, to, documents: [...] }` (lib/exports/export-text.ts), in
 * batches of `batchSize` rows (by default the records' own, by kind of database).
 */
export function operatorExportChunks(
  period: Pick<OperatorPeriod, "from" | "to">,
  format: ExportFormat,
  options: { records?: Pick<OperatorRecords, "exportPeriodBatches">; batchSize?: number; now?: Date } = {},
): AsyncGenerator<string> {
  const records = options.records ?? operatorRecords;
  const batches = records.exportPeriodBatches(period, options.batchSize);
  if (format === "csv") return csvFile(DOCUMENT_COLUMNS, csvLinesOf(batches, documentCells));
  const head = { exportedAt: (options.now ?? new Date()).toISOString(), from: period.from.toISOString(), to: period.to.toISOString() };
  return jsonFile(head, { documents: batches });
}

/** The whole access log, oldest first, as CSV (with BOM) or JSON `{ exportedAt, entries: [...] }`. */
export function accessLogExportChunks(
  format: ExportFormat,
  options: { records?: Pick<OperatorRecords, "exportAccessBatches">; batchSize?: number; now?: Date } = {},
): AsyncGenerator<string> {
  const records = options.records ?? operatorRecords;
  const batches = records.exportAccessBatches(options.batchSize);
  if (format === "csv") return csvFile(ACCESS_COLUMNS, csvLinesOf(batches, accessCells));
  return jsonFile({ exportedAt: (options.now ?? new Date()).toISOString() }, { entries: batches });
}
