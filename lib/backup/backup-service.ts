import "server-only";
import type net from "node:net";
import { Cron } from "croner";
import { listVerifiedBackups, readStoredManifest } from "@/lib/backup/backup-catalog";
import { BackupError } from "@/lib/backup/backup-error";
import { getBackupStatus, updateBackupStatus } from "@/lib/backup/backup-status";
import { listenForControl } from "@/lib/backup/control-socket";
import { runBackup, type BackupResult } from "@/lib/backup/run-backup";
import { openBackupTarget } from "@/lib/backup/targets/open-target";
import { getDatabase } from "@/lib/db/client";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import { recordBackupScheduled, setLastBackupSuccess } from "@/lib/metrics/backups";

type Service = { cron?: Cron; socket?: net.Server };
const SERVICE_KEY = Symbol.for("esign.backupService");

/** This process's backup of the embedded database, now; the same one when one is already running. */
export async function backUpNow(): Promise<BackupResult> {
  const { backups } = getConfig();
  if (!backups.target) throw new BackupError("NOT_CONFIGURED", "BACKUP_TARGET is not set: there is nowhere to put a backup.");
  const { embedded } = await getDatabase();
  if (!embedded) throw new BackupError("NOT_EMBEDDED", "This instance runs on PostgreSQL (DATABASE_URL): backing it up is PostgreSQL's own job (pg_dump, or the managed service's backups).");
  return runBackup(embedded, { target: openBackupTarget(backups.target), key: backups.key, keep: backups.keep });
}

/**
 * At start-up, on the instance that holds the embedded database, with BACKUP_TARGET set: takes requests from
 * `npm run backup` on the data folder's control socket, runs BACKUP_SCHEDULE, and reads the newest verified backup
 * from the target (for the metrics and the operator overview). Nothing with PostgreSQL, or without a target.
 */
export async function startBackupService(): Promise<void> {
  const g = globalThis as typeof globalThis & { [SERVICE_KEY]?: Service };
  const { backups, database } = getConfig();
  if (database.url || !backups.target || g[SERVICE_KEY]) return;
  const logger = getLogger();
  const service: Service = {};
  g[SERVICE_KEY] = service;
  updateBackupStatus({ configured: true, scheduled: Boolean(backups.schedule) });
  const target = openBackupTarget(backups.target);
  try {
    const { embedded } = await getDatabase();
    if (embedded) service.socket = await listenForControl(embedded.dataDir, async (command) => {
      if (command !== "backup") throw new BackupError("NOT_CONFIGURED", `Unknown command "${command}": the control socket takes "backup".`);
      return backUpNow();
    });
  } catch (error) {
    logger.warn({ msg: `backup: npm run backup cannot reach this instance (${(error as Error).message}); scheduled backups still run` });
  }
  if (backups.schedule) {
    // protect: a backup still running when the next is due is not started twice.
    service.cron = new Cron(backups.schedule, { protect: true }, async () => {
      try {
        await backUpNow();
      } catch {
        // Logged, counted and shown by runBackup.
      }
    });
    recordBackupScheduled(true);
    logger.info({ msg: `backup: scheduled (${backups.schedule}) to ${target.description}, next at ${service.cron.nextRun()?.toISOString()}` });
  }
  void loadLatestBackup(target, Boolean(backups.schedule));
}

/** The newest verified backup in the target, as the last success; with none yet, the schedule's start counts. */
async function loadLatestBackup(target: ReturnType<typeof openBackupTarget>, scheduled: boolean): Promise<void> {
  try {
    const [id] = await listVerifiedBackups(target);
    if (getBackupStatus().latest) return;
    if (!id) {
      if (scheduled) setLastBackupSuccess(new Date());
      return;
    }
    const stored = await readStoredManifest(target, id);
    updateBackupStatus({ latest: { id, createdAt: stored.createdAt, sizeBytes: stored.sizeBytes } });
    setLastBackupSuccess(new Date(stored.createdAt));
  } catch (error) {
    getLogger().warn({ msg: `backup: the newest backup in ${target.description} could not be read (${(error as Error).message})` });
    if (scheduled) setLastBackupSuccess(new Date());
  }
}

/** Graceful shutdown: no new backup starts and the control socket closes (before the database closes). */
export async function stopBackupService(): Promise<void> {
  const g = globalThis as typeof globalThis & { [SERVICE_KEY]?: Service };
  const service = g[SERVICE_KEY];
  if (!service) return;
  service.cron?.stop();
  await new Promise<void>((resolve) => (service.socket ? service.socket.close(() => resolve()) : resolve()));
  g[SERVICE_KEY] = undefined;
}
