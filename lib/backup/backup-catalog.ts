import "server-only";
import type { BackupManifest } from "@/lib/backup/backup-archive";
import { BackupError } from "@/lib/backup/backup-error";
import type { BackupTarget } from "@/lib/backup/targets/backup-target";

/** A backup's id: its UTC time to the second and 4 random hex digits, so names sort by age. */
export const BACKUP_ID = /^\d{8}T\d{6}Z-[0-9a-f]{4}$/;
export const FAILED_PREFIX = "failed/";

export const archiveName = (id: string) => `${id}.backup`;
export const manifestName = (id: string) => `${id}.json`;

/** What is stored beside each verified backup: its manifest, and what the file should be. */
export type StoredManifest = BackupManifest & { sizeBytes: number; sha256: string; encrypted: boolean; verifiedAt: string };

export function newBackupId(now = new Date(), random = Math.floor(Math.random() * 0x10000)): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
  return `${stamp}-${random.toString(16).padStart(4, "0")}`;
}

/**
 * The verified backups in a target, newest first. A backup counts only once its manifest is there: the manifest is
 * written after the archive, and only for a backup that passed verification.
 */
export async function listVerifiedBackups(target: BackupTarget): Promise<string[]> {
  const names = await target.list("");
  return names
    .filter((n) => n.endsWith(".json"))
    .map((n) => n.slice(0, -".json".length))
    .filter((id) => BACKUP_ID.test(id))
    .sort()
    .reverse();
}

export async function readStoredManifest(target: BackupTarget, id: string): Promise<StoredManifest> {
  const bytes = await target.readBytes(manifestName(id));
  if (!bytes) throw new BackupError("NOT_FOUND", `There is no verified backup ${id} in ${target.description}.`);
  return JSON.parse(bytes.toString("utf8")) as StoredManifest;
}

/** Which verified backups to remove so that `keep` remain: the oldest, never the newest. */
export function backupsBeyond(idsNewestFirst: string[], keep: number): string[] {
  return idsNewestFirst.slice(Math.max(1, keep));
}

/** Removes the oldest verified backups beyond `keep`; called only after a newer backup was verified and stored. */
export async function rotateBackups(target: BackupTarget, keep: number): Promise<string[]> {
  const removed = backupsBeyond(await listVerifiedBackups(target), keep);
  for (const id of removed) {
    // Manifest first: a backup half removed is no longer listed as verified.
    await target.remove(manifestName(id));
    await target.remove(archiveName(id));
  }
  return removed;
}
