import "server-only";
import { counter, histogram } from "@/lib/metrics/registry";

/** The repositories' operations (lib/documents/document-records.ts; "operator" and "user_sign_in": lib/operators; "erasure": lib/erasure): fixed names, never user data, as labels. */
export type DatabaseOperation = "record_created" | "record_events" | "list" | "get" | "remove" | "export" | "import" | "retention_sweep" | "ping" | "operator" | "user_sign_in" | "erasure";

/** Records one database operation: its latency, and whether it succeeded. */
export function recordDatabaseOperation(database: "pglite" | "postgres", operation: DatabaseOperation, outcome: "ok" | "error", seconds: number): void {
  counter({
    name: "esign_database_operations_total",
    help: "Document-record database operations by database, operation and outcome",
    labelNames: ["database", "operation", "outcome"] as const,
  }).inc({ database, operation, outcome });
  histogram({
    name: "esign_database_operation_duration_seconds",
    help: "Document-record database operation latency, opening the database included on first use",
    labelNames: ["database", "operation"] as const,
  }).observe({ database, operation }, seconds);
}
