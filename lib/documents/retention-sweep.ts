import "server-only";
import { describeDatabaseError } from "@/lib/db/database-errors";
import { documentRecords, type DocumentRecords } from "@/lib/documents/document-records";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import { operatorRecords, type OperatorRecords } from "@/lib/operators/operator-records";

/** How often each instance sweeps; with several instances sharing PostgreSQL, a sweep finding nothing is cheap. */
const SWEEP_INTERVAL_MS = 60 * 60_000;
/** The first sweep waits this long after start-up, off the path of the first requests. */
const FIRST_SWEEP_DELAY_MS = 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** Deletes the records (with their audit trails) untouched for `retentionDays`; resolves how many went. */
export function sweepExpiredDocuments(records: Pick<DocumentRecords, "deleteDocumentsUpdatedBefore">, retentionDays: number, now = new Date()): Promise<number> {
  return records.deleteDocumentsUpdatedBefore(new Date(now.getTime() - retentionDays * DAY_MS));
}

/**
 * Deletes the user records (lib/operators/user-records.ts) not seen at a sign-in for `retentionDays` and left without
 * document records, after the documents' own sweep; resolves how many went.
 */
export function sweepExpiredUsers(records: Pick<OperatorRecords, "deleteUsersNotSeenSince">, retentionDays: number, now = new Date()): Promise<number> {
  return records.deleteUsersNotSeenSince(new Date(now.getTime() - retentionDays * DAY_MS));
}

const STARTED_KEY = Symbol.for("esign.retentionSweep");

/**
 * Sweeps hourly when DOCUMENT_RETENTION_DAYS is set (unset keeps every record). Once per process, on globalThis like
 * the database itself; the timer never holds the process open. A failed sweep is logged and tried again next hour.
 */
export function startRetentionSweep(): void {
  const { retentionDays } = getConfig().database;
  const g = globalThis as typeof globalThis & { [STARTED_KEY]?: boolean };
  if (!retentionDays || g[STARTED_KEY]) return;
  g[STARTED_KEY] = true;
  const sweep = async () => {
    try {
      const deleted = await sweepExpiredDocuments(documentRecords, retentionDays);
      if (deleted > 0) getLogger().info({ msg: `document records: ${deleted} untouched for ${retentionDays} days deleted (DOCUMENT_RETENTION_DAYS)` });
      const users = await sweepExpiredUsers(operatorRecords, retentionDays);
      if (users > 0) getLogger().info({ msg: `user records: ${users} not seen for ${retentionDays} days and without documents deleted (DOCUMENT_RETENTION_DAYS)` });
    } catch (error) {
      getLogger().warn({ msg: `document records: retention sweep failed (${describeDatabaseError(error)}); trying again in an hour` });
    }
  };
  setTimeout(() => void sweep(), FIRST_SWEEP_DELAY_MS).unref();
  setInterval(() => void sweep(), SWEEP_INTERVAL_MS).unref();
}
