/**
 * `npm run backup`: one backup of the embedded database, now (docs/backups.md). It asks the running instance over
 * the data folder's control socket, since only the process holding the folder may read it; with no instance
 * running, it takes the folder itself for the length of the backup. Reads the configuration the way `next start`
 * does (.env files, the process environment wins).
 */
import nextEnv from "@next/env";
import { BackupError } from "@/lib/backup/backup-error";
import { askRunningInstance } from "@/lib/backup/control-socket";
import { runBackup, type BackupResult } from "@/lib/backup/run-backup";
import { openBackupTarget } from "@/lib/backup/targets/open-target";
import { openDatabase } from "@/lib/db/client";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { ConfigError, parseBackupToolConfig } from "@/lib/env";
import path from "node:path";

nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production", { info: () => {}, error: console.error });

const describe = (result: BackupResult) =>
  `Backup ${result.id} verified and stored (${(result.sizeBytes / 1024 / 1024).toFixed(1)} MiB${result.encrypted ? ", encrypted" : ""}) in ${(result.ms / 1000).toFixed(1)} s; the database was held for ${Math.round(result.exclusiveMs)} ms.`;

async function backUp(): Promise<string> {
  const { database, backups } = parseBackupToolConfig(process.env);
  if (database.url) throw new BackupError("NOT_EMBEDDED", "DATABASE_URL is set: backing up PostgreSQL is its own job (pg_dump, or the managed service's backups); see docs/backups.md.");
  if (!backups.target) throw new BackupError("NOT_CONFIGURED", "BACKUP_TARGET is not set: set it to a folder, s3://bucket/prefix or azure://container/prefix (docs/backups.md).");
  const dataDir = path.resolve(database.dir);
  const answer = await askRunningInstance<BackupResult>(dataDir, "backup");
  if (answer) {
    if (!answer.ok) throw new BackupError(answer.error.code === "INTERNAL" ? "VERIFY_MISMATCH" : answer.error.code, answer.error.message);
    return `${describe(answer.result)} (taken by the running instance)`;
  }
  let opened;
  try {
    opened = await openDatabase({ dir: dataDir });
  } catch (error) {
    // Held but not answering: an instance without the control socket (older, or a socket path too long).
    if (error instanceof DataDirLockedError) throw new BackupError("FOLDER_IN_USE", `${error.message} It did not answer on its control socket: run the backup from that instance's schedule, or stop it first.`);
    throw error;
  }
  try {
    return describe(await runBackup(opened.embedded!, { target: openBackupTarget(backups.target), key: backups.key, keep: backups.keep }));
  } finally {
    await opened.close();
  }
}

try {
  console.log(await backUp());
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof BackupError ? error.message : `The backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
