import "server-only";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { sha256OfFile } from "@/lib/backup/archive-format";
import { unpackBackupArchive, writeBackupArchive } from "@/lib/backup/backup-archive";
import { archiveName, FAILED_PREFIX, manifestName, newBackupId, rotateBackups, type StoredManifest } from "@/lib/backup/backup-catalog";
import { BackupError } from "@/lib/backup/backup-error";
import { publishErasureLedger } from "@/lib/backup/erasure-ledger-copy";
import { updateBackupStatus } from "@/lib/backup/backup-status";
import type { BackupTarget } from "@/lib/backup/targets/backup-target";
import { verifyUnpackedBackup } from "@/lib/backup/verify-backup";
import type { EmbeddedDatabase } from "@/lib/db/client";
import { getLogger } from "@/lib/logging/logger";
import { recordBackupFailure, recordBackupSuccess } from "@/lib/metrics/backups";

export type BackupRun = { target: BackupTarget; key: Buffer | undefined; keep: number };

/** A verified, stored backup, with what it cost. */
export type BackupResult = StoredManifest & { ms: number; snapshotMs: number; exclusiveMs: number; verifyMs: number; uploadMs: number; removed: string[] };

/** The work folder beside the data folder: the backup file is written and unpacked there before it goes out. */
export function spoolDirOf(dataDir: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.backup-spool`);
}

const RUNNING_KEY = Symbol.for("esign.backupRunning");

/**
 * Takes a backup of the embedded database while it serves, verifies it, stores it in the target and removes the
 * oldest beyond `keep`:
 * 1. snapshot into a file in the spool folder (lib/backup/snapshot.ts), encrypted when there is a key;
 * 2. that very file unpacked into a scratch folder and opened there: its migrations and row counts must be the live
 *    database's at the snapshot;
 * 3. the file, then its manifest, to the target (a backup counts once its manifest is there);
 * 4. only then are older backups removed.
 * A backup that fails verification is stored under `failed/` with the reason, logged and counted as a failure; it
 * never counts as the latest. One backup at a time per process: a second call while one runs gets the same result.
 */
export function runBackup(embedded: EmbeddedDatabase, run: BackupRun): Promise<BackupResult> {
  const g = globalThis as typeof globalThis & { [RUNNING_KEY]?: Promise<BackupResult> };
  if (g[RUNNING_KEY]) return g[RUNNING_KEY];
  updateBackupStatus({ running: true });
  const running = takeBackup(embedded, run).finally(() => {
    g[RUNNING_KEY] = undefined;
    updateBackupStatus({ running: false });
  });
  g[RUNNING_KEY] = running;
  return running;
}

async function takeBackup({ client, dataDir }: EmbeddedDatabase, { target, key, keep }: BackupRun): Promise<BackupResult> {
  const logger = getLogger();
  const started = performance.now();
  const id = newBackupId();
  const spool = spoolDirOf(dataDir);
  const file = path.join(spool, archiveName(id));
  const scratch = path.join(spool, `${id}.verify`);
  let stage: "snapshot" | "verify" | "upload" = "snapshot";
  try {
    await rm(spool, { recursive: true, force: true });
    await mkdir(spool, { recursive: true, mode: 0o700 });
    const { manifest, timings, sizeBytes } = await writeBackupArchive(client, dataDir, file, key, id);
    stage = "verify";
    let verifyMs: number;
    try {
      await verifyUnpackedBackup(scratch, await unpackBackupArchive(file, key, scratch));
      verifyMs = performance.now() - started - timings.ms;
    } catch (error) {
      await keepAside(target, id, file, error);
      throw error;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    stage = "upload";
    const uploadStarted = performance.now();
    const stored: StoredManifest = { ...manifest, sizeBytes, sha256: await sha256OfFile(file), encrypted: Boolean(key), verifiedAt: new Date().toISOString() };
    await target.upload(archiveName(id), file);
    await target.writeBytes(manifestName(id), Buffer.from(JSON.stringify(stored)));
    await publishErasureLedger(target, client);
    const uploadMs = performance.now() - uploadStarted;
    const removed = await rotateBackups(target, keep);
    const ms = performance.now() - started;
    recordBackupSuccess(new Date(manifest.createdAt), ms / 1000, sizeBytes);
    updateBackupStatus({ latest: { id, createdAt: manifest.createdAt, sizeBytes }, failure: undefined });
    logger.info({
      msg: `backup: ${id} verified and stored in ${target.description} (${(sizeBytes / 1024 / 1024).toFixed(1)} MiB${key ? ", encrypted" : ""}; ${removed.length} older removed)`,
      ms: Math.round(ms),
      exclusiveMs: Math.round(timings.exclusiveMs),
    });
    return { ...stored, ms, snapshotMs: timings.ms, exclusiveMs: timings.exclusiveMs, verifyMs, uploadMs, removed };
  } catch (error) {
    recordBackupFailure(stage);
    const message = error instanceof BackupError ? error.message : `${stage} failed (${(error as Error).message})`;
    updateBackupStatus({ failure: { at: new Date().toISOString(), message } });
    logger.error({ msg: `backup: ${id} failed at ${stage}: ${message}` });
    throw error instanceof BackupError ? error : new BackupError(stage === "upload" ? "TARGET_UNREACHABLE" : "VERIFY_MISMATCH", `The backup failed at ${stage}: ${(error as Error).message}`, { cause: error });
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

/** A backup that failed verification, kept for a look under failed/ with why; never listed as a backup. */
async function keepAside(target: BackupTarget, id: string, file: string, error: unknown): Promise<void> {
  try {
    await target.upload(`${FAILED_PREFIX}${archiveName(id)}`, file);
    await target.writeBytes(`${FAILED_PREFIX}${manifestName(id)}`, Buffer.from(JSON.stringify({ id, failedAt: new Date().toISOString(), reason: (error as Error).message })));
  } catch (asideError) {
    getLogger().error({ msg: `backup: ${id} could not be kept aside in ${target.description}: ${(asideError as Error).message}` });
  }
}
