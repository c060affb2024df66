import "server-only";
import { csvCell } from "@/lib/documents/documents-export";
import { operatorRecords, type OperatorExportRow, type OperatorRecords } from "@/lib/operators/operator-records";
import type { ExportFormat, OperatorAccessEntry, OperatorPeriod } from "@/lib/operators/types";

/** Rows read per query: memory holds one batch (a few hundred KiB of text), whatever the period's size. */
export const OPERATOR_EXPORT_BATCH_SIZE = 500;

/** The UTF-8 byte-order mark: Excel opened by double-click reads a CSV without it in the ANSI code page. */
const BOM = "\uFEFF";

const DOCUMENT_COLUMNS = ["created_at", "user_key", "email", "item_id", "name", "doctype", "status", "size", "md5", "last_error_code", "updated_at", "removed_at"] as const;
const ACCESS_COLUMNS = ["id", "at", "operator_email", "operator_user_key", "action", "subject_user_key", "subject_email", "item_id", "detail"] as const;

const documentCells = (row: OperatorExportRow) => [row.createdAt, row.userKey, row.email, row.itemId, row.name, row.doctype, row.status, row.size, row.md5, row.lastErrorCode, row.updatedAt, row.removedAt];
const accessCells = (row: OperatorAccessEntry) => [row.id, row.at, row.operatorEmail, row.operatorUserKey, row.action, row.subjectUserKey, row.subjectEmail, row.itemId, row.detail];

async function* csv<T>(batches: AsyncIterable<T[]>, columns: readonly string[], cells: (row: T) => (string | number | null)[]): AsyncGenerator<string> {
  yield `${BOM}${columns.join(",")}\r\n`;
  for await (const batch of batches) yield batch.map((row) => `${cells(row).map(csvCell).join(",")}\r\n`).join("");
}

async function* json<T>(batches: AsyncIterable<T[]>, head: Record<string, unknown>, key: string): AsyncGenerator<string> {
  yield `${JSON.stringify(head).slice(0, -1)}${Object.keys(head).length ? "," : ""}${JSON.stringify(key)}:[`;
  let first = true;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    yield `${first ? "" : ","}${batch.map((row) => JSON.stringify(row)).join(",")}`;
    first = false;
  }
  yield "]}";
}

/**
 * The documents created in the period across users (oldest first, with the user's verified email, status and last
 * error code) as CSV (with BOM) or JSON `{ exportedAt, from, to, documents: [...] }`, in text chunks, one per batch.
 */
export function operatorExportChunks(
  period: Pick<OperatorPeriod, "from" | "to">,
  format: ExportFormat,
  options: { records?: Pick<OperatorRecords, "exportPeriodBatches">; batchSize?: number; now?: Date } = {},
): AsyncGenerator<string> {
  const records = options.records ?? operatorRecords;
  const batches = records.exportPeriodBatches(period, options.batchSize ?? OPERATOR_EXPORT_BATCH_SIZE);
  if (format === "csv") return csv(batches, DOCUMENT_COLUMNS, documentCells);
  const head = { exportedAt: (options.now ?? new Date()).toISOString(), from: period.from.toISOString(), to: period.to.toISOString() };
  return json(batches, head, "documents");
}

/** The whole access log, oldest first, as CSV (with BOM) or JSON `{ exportedAt, entries: [...] }`. */
export function accessLogExportChunks(
  format: ExportFormat,
  options: { records?: Pick<OperatorRecords, "exportAccessBatches">; batchSize?: number; now?: Date } = {},
): AsyncGenerator<string> {
  const records = options.records ?? operatorRecords;
  const batches = records.exportAccessBatches(options.batchSize ?? OPERATOR_EXPORT_BATCH_SIZE);
  if (format === "csv") return csv(batches, ACCESS_COLUMNS, accessCells);
  return json(batches, { exportedAt: (options.now ?? new Date()).toISOString() }, "entries");
}
