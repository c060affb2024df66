import "server-only";
import { configuredDatabaseKind, getDatabase, type Database, type DatabaseKind, type OpenDatabase } from "@/lib/db/client";
import { databaseOperations } from "@/lib/db/database-operations";
import { EXPORT_BATCH_SIZES } from "@/lib/documents/documents-export";
import { deleteUsersNotSeenSince } from "@/lib/operators/records/delete-users-not-seen-since";
import { exportAccessBatches } from "@/lib/operators/records/export-access-batches";
import { exportPeriodBatches } from "@/lib/operators/records/export-period-batches";
import { getOperatorDocument } from "@/lib/operators/records/get-operator-document";
import { getOperatorOverview } from "@/lib/operators/records/get-operator-overview";
import { getOperatorUser } from "@/lib/operators/records/get-operator-user";
import { listOperatorAccess } from "@/lib/operators/records/list-operator-access";
import { listStuckDocuments } from "@/lib/operators/records/list-stuck-documents";
import { recordOperatorAccess } from "@/lib/operators/records/record-operator-access";
import { searchOperator } from "@/lib/operators/records/search-operator";
import type { Operator, OperatorAccessInput, OperatorPeriod, StuckDocumentsQuery } from "@/lib/operators/types";

/**
 * The operator's reads across users, and the access log, on one database (lib/db): each operation is its own file in
 * lib/operators/records/, run here as one counted database operation ("operator" in the metrics). Only operator code
 * calls these (lib/operators/operator-access.ts decides who is one). Failures become DatabaseUnavailableError (a 503)
 * or a DatabaseQueryError naming the operation, never the query's values (names, emails). The exports' batches go
 * through the export query gate, as the user's own export's do, and are as large (EXPORT_BATCH_SIZES: 100 rows on
 * PGlite, 500 on PostgreSQL).
 */
export function operatorRecordsFor(open: () => Promise<Pick<OpenDatabase, "db" | "kind">>, configuredKind?: () => DatabaseKind) {
  const operations = databaseOperations(open, configuredKind);
  const run = <T>(operation: string, work: (db: Database) => Promise<T>) => operations.run(`operator ${operation}`, "operator", work);
  const runExport = (operation: string) => <T>(work: (db: Database) => Promise<T>) => operations.runExport(`operator ${operation}`, "operator", work);
  // Unless the caller says: as many rows a query as the user's own export reads on this kind of database.
  const exportBatchSize = (requested?: number) => requested ?? EXPORT_BATCH_SIZES[configuredKind?.() ?? "postgres"].batchSize;
  return {
    getOperatorOverview: (period: OperatorPeriod) => run("overview", (db) => getOperatorOverview(db, period)),
    listStuckDocuments: (query: StuckDocumentsQuery) => run("stuck", (db) => listStuckDocuments(db, query)),
    searchOperator: (query: string, options?: { limit?: number }) => run("search", (db) => searchOperator(db, query, options)),
    getOperatorUser: (userKey: string, options?: { cursor?: string; limit?: number }) => run("user", (db) => getOperatorUser(db, userKey, options)),
    getOperatorDocument: (userKey: string, itemId: string) => run("document", (db) => getOperatorDocument(db, userKey, itemId)),
    recordOperatorAccess: (operator: Operator, input: OperatorAccessInput) => run("access_record", (db) => recordOperatorAccess(db, operator, input)),
    listOperatorAccess: (options?: { before?: number; limit?: number }) => run("access_list", (db) => listOperatorAccess(db, options)),
    exportAccessBatches: (batchSize?: number) => exportAccessBatches(runExport("access_export"), exportBatchSize(batchSize)),
    exportPeriodBatches: (period: Pick<OperatorPeriod, "from" | "to">, batchSize?: number) => exportPeriodBatches(runExport("export"), period, exportBatchSize(batchSize)),
    deleteUsersNotSeenSince: (before: Date) => run("retention_sweep", (db) => deleteUsersNotSeenSince(db, before)),
  };
}

export type OperatorRecords = ReturnType<typeof operatorRecordsFor>;

/** The operator's reads in this process's database (lib/db/client.ts). */
export const operatorRecords: OperatorRecords = operatorRecordsFor(getDatabase, configuredDatabaseKind);
