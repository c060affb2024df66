import "server-only";
import { existsSync } from "node:fs";
import { readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sha256OfFile } from "@/lib/backup/archive-format";
import { reapplyErasuresBesideBackups } from "@/lib/backup/erasure-ledger-copy";
import { unpackBackupArchive, type BackupManifest } from "@/lib/backup/backup-archive";
import { archiveName, BACKUP_ID, listVerifiedBackups, readStoredManifest, type StoredManifest } from "@/lib/backup/backup-catalog";
import { BackupError } from "@/lib/backup/backup-error";
import { ARCHIVE_DATA_FOLDER } from "@/lib/backup/snapshot";
import type { BackupTarget } from "@/lib/backup/targets/backup-target";
import { assertSchemaKnown, verifyUnpackedBackup } from "@/lib/backup/verify-backup";
import { PGLITE_START_PARAMS } from "@/lib/db/client";
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from "@/lib/db/data-dir-lock";
import { syncFolderTree, syncPath } from "@/lib/db/durable-pglite";
import { migratePgliteDatabase } from "@/lib/db/migrate";
import type { FolderLock } from "@/lib/server/folder-lock";

/** What a post-restore step gets: the restored database, not yet in place, and where it came from. */
export type PostRestoreContext = { client: PGlite; manifest: BackupManifest; target: BackupTarget | undefined };
export type PostRestoreStep = { name: string; run(context: PostRestoreContext): Promise<void> };

/**
 * What runs on a restored database, in this order, after it was verified and before it is moved into place (so
 * before the app serves it). A step that fails stops the restore with nothing changed.
 */
export const POST_RESTORE_STEPS: readonly PostRestoreStep[] = [
  // First, so that later steps find this version's tables (a backup may predate a migration).
  { name: "apply this version's migrations", run: ({ client }) => migratePgliteDatabase(client) },
  // Before the app serves: a user erased after the backup was taken stays erased (lib/backup/erasure-ledger-copy.ts).
  { name: "apply the erasures kept beside the backups", run: ({ client, target }) => reapplyErasuresBesideBackups(client, target) },
];

/** `latest`, a backup id in the target, or a backup file's path. */
export type RestoreSource = { kind: "latest" } | { kind: "id"; id: string } | { kind: "file"; file: string };

export function parseRestoreSource(argument: string | undefined): RestoreSource {
  if (!argument || argument === "latest") return { kind: "latest" };
  if (BACKUP_ID.test(argument)) return { kind: "id", id: argument };
  return { kind: "file", file: path.resolve(argument) };
}

export type RestoreOptions = {
  dataDir: string;
  source: RestoreSource;
  target: BackupTarget | undefined;
  key: Buffer | undefined;
  /** Keep a non-empty data folder aside (renamed) and put the backup in its place. */
  replace: boolean;
  steps?: readonly PostRestoreStep[];
};

export type RestoreResult = { id: string; createdAt: string; keptAside: string | undefined; ms: number };

/** The data folder holds a database (anything but the lock file). */
async function holdsSomething(dataDir: string): Promise<boolean> {
  return (await readdir(dataDir)).some((name) => name !== LOCK_FILE_NAME);
}

function takeFolder(dir: string): FolderLock {
  try {
    return acquireDataDirLock(dir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError("FOLDER_IN_USE", `Nothing was restored: the embedded database in ${dir} is in use by a running instance (the operating system's lock on it is held). Stop the app, then restore.`, { cause: error });
    }
    throw error;
  }
}

/** Fetches the backup to `file` (from the target) or names the given file; checks a fetched copy against its manifest. */
async function fetchBackup(options: RestoreOptions, file: string): Promise<string> {
  const { source, target } = options;
  if (source.kind === "file") {
    if (!existsSync(source.file)) throw new BackupError("NOT_FOUND", `Nothing was restored: there is no file ${source.file}.`);
    return source.file;
  }
  if (!target) throw new BackupError("NOT_CONFIGURED", "Nothing was restored: BACKUP_TARGET is not set, so there is no backup to take the latest or an id from (give a backup file's path instead).");
  let id: string;
  if (source.kind === "latest") {
    const ids = await listVerifiedBackups(target);
    if (!ids[0]) throw new BackupError("NOT_FOUND", `Nothing was restored: there is no verified backup in ${target.description}.`);
    id = ids[0];
  } else {
    id = source.id;
  }
  const stored: StoredManifest = await readStoredManifest(target, id);
  await target.download(archiveName(id), file);
  const { size } = await stat(file);
  if (size < stored.sizeBytes) throw new BackupError("TRUNCATED", `Nothing was restored: backup ${id} is truncated (${size} of ${stored.sizeBytes} bytes in ${target.description}).`);
  if ((await sha256OfFile(file)) !== stored.sha256) throw new BackupError("CORRUPTED", `Nothing was restored: backup ${id} in ${target.description} does not match the checksum stored beside it (a damaged copy).`);
  return file;
}

/**
 * `npm run restore`: refuses while an instance holds the data folder, and a folder with a database in it unless
 * `replace`; fetches and unpacks the backup beside the data folder, verifies it (the checks of a backup: it opens,
 * and its migrations and row counts are what the live database had at the snapshot), refuses one from a newer
 * schema, runs the post-restore steps, and only then swaps it in: the old folder is renamed `<folder>.replaced-<time>`,
 * never deleted. Any failure before the swap leaves everything as it was. Sessions are not in backups (they live in
 * the session store, and hold tokens): users sign in again after a restore onto a new machine.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const dataDir = path.resolve(options.dataDir);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
  const staging = `${dataDir}.restore-${stamp}`;
  const exists = existsSync(dataDir);
  // Taking the lock makes its file: removed again if the restore stops, so that a refusal leaves no trace.
  const hadLockFile = existsSync(path.join(dataDir, LOCK_FILE_NAME));
  const oldLock = exists ? takeFolder(dataDir) : undefined;
  let swapped = false;
  let newLock: FolderLock | undefined;
  try {
    const replacing = exists && (await holdsSomething(dataDir));
    if (replacing && !options.replace) {
      throw new BackupError("FOLDER_NOT_EMPTY", `Nothing was restored: ${dataDir} holds a database. Run again with --replace to keep it aside (renamed, never deleted) and restore in its place.`);
    }
    await rm(staging, { recursive: true, force: true });
    const file = await fetchBackup(options, `${staging}.backup`);
    const manifest = await unpackBackupArchive(file, options.key, staging);
    assertSchemaKnown(manifest);
    await verifyUnpackedBackup(staging, manifest);
    const restored = path.join(staging, ARCHIVE_DATA_FOLDER);
    const client = await PGlite.create({ dataDir: restored, startParams: PGLITE_START_PARAMS });
    try {
      for (const step of options.steps ?? POST_RESTORE_STEPS) {
        try {
          await step.run({ client, manifest, target: options.target });
        } catch (error) {
          throw new BackupError("VERIFY_MISMATCH", `Nothing was restored: the post-restore step "${step.name}" failed (${(error as Error).message}).`, { cause: error });
        }
      }
    } finally {
      await client.close();
    }
    syncFolderTree(restored);
    // Locked before it moves: the lock goes with the folder, so an instance starting meanwhile is refused.
    newLock = takeFolder(restored);
    const keptAside = replacing ? `${dataDir}.replaced-${stamp}` : undefined;
    if (keptAside) await rename(dataDir, keptAside);
    else if (exists) await rm(dataDir, { recursive: true, force: true });
    await rename(restored, dataDir);
    swapped = true;
    // The renames are on disk once their folder is synced.
    syncPath(path.dirname(dataDir));
    return { id: manifest.id, createdAt: manifest.createdAt, keptAside, ms: performance.now() - started };
  } finally {
    newLock?.release();
    if (oldLock && !swapped && !hadLockFile) await rm(path.join(dataDir, LOCK_FILE_NAME), { force: true });
    oldLock?.release();
    await rm(staging, { recursive: true, force: true });
    await rm(`${staging}.backup`, { force: true });
  }
}
