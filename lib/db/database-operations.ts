import "server-only";
import { type Database, type DatabaseKind, type OpenDatabase } from "@/lib/db/client";
import { DatabaseQueryError, DatabaseUnavailableError, describeDatabaseFailure, isDatabaseUnavailable, sqlstateOf } from "@/lib/db/database-errors";
import { exportQueryGate } from "@/lib/documents/export-slots";
import { AppError } from "@/lib/errors";
import { recordDatabaseOperation, type DatabaseOperation } from "@/lib/metrics/database";

/**
 * How a records module runs its work on one database (`open`): `run` opens it, counts the work under `metric`
 * (latency and outcome) and turns a failure into DatabaseUnavailableError (a 503) or a DatabaseQueryError named by
 * `name` and SQLSTATE; `runExport` does the same through this process's export query gate
 * (lib/documents/export-slots.ts): across users and exports, one batch query at a time on PGlite with a turn of the
 * event loop after each, two on PostgreSQL. A failed open counts under `configuredKind`.
 */
export function databaseOperations(open: () => Promise<Pick<OpenDatabase, "db" | "kind">>, configuredKind?: () => DatabaseKind) {
  async function run<T>(name: string, metric: DatabaseOperation, work: (db: Database) => Promise<T>): Promise<T> {
    const started = performance.now();
    let kind: DatabaseKind | undefined;
    try {
      const opened = await open().catch((error: unknown) => {
        throw new DatabaseUnavailableError(`database could not be opened: ${describeDatabaseFailure(error)}`);
      });
      kind = opened.kind;
      const result = await work(opened.db);
      recordDatabaseOperation(kind, metric, "ok", (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      const label = kind ?? configuredKind?.();
      if (label) recordDatabaseOperation(label, metric, "error", (performance.now() - started) / 1000);
      if (error instanceof DatabaseUnavailableError || error instanceof AppError) throw error;
      // Named by operation and SQLSTATE, without the original as `cause`: the driver's message and Drizzle's
      // "Failed query: … params: …" carry the query's values (document names, emails, user keys), and whatever logs an
      // error with its cause chain (ours, Next's for a page, console.error) would print them.
      if (isDatabaseUnavailable(error)) throw new DatabaseUnavailableError(`database ${name}: ${describeDatabaseFailure(error)}`);
      throw new DatabaseQueryError(name, sqlstateOf(error));
    }
  }

  async function runExport<T>(name: string, metric: DatabaseOperation, work: (db: Database) => Promise<T>): Promise<T> {
    const kind = await open().then(
      (opened) => opened.kind,
      () => undefined,
    );
    // A database that does not open: run() reports it as every other operation does.
    if (!kind) return run(name, metric, work);
    return exportQueryGate(kind).run(() => run(name, metric, work));
  }

  return { run, runExport };
}

export type DatabaseOperations = ReturnType<typeof databaseOperations>;

/** Work on the database as one operation, bound to its name and metric (what batch generators take). */
export type RunQuery = <T>(work: (db: Database) => Promise<T>) => Promise<T>;
