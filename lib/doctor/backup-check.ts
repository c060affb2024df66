import "server-only";
import { listVerifiedBackups } from "@/lib/backup/backup-catalog";
import { BackupError } from "@/lib/backup/backup-error";
import { openBackupTarget } from "@/lib/backup/targets/open-target";
import type { AppConfig } from "@/lib/env";
import type { CheckResult } from "@/lib/doctor/report";

const TITLE = "Backups";
/** Written, read back and removed: proves the target takes writes with the credentials the app has. */
const PROBE_FILE = "doctor-write-check.json";

/**
 * Backups of the embedded database (docs/backups.md): with PostgreSQL they are the database's own job; otherwise the
 * target must be reachable and writable, and one of BACKUP_TARGET or BACKUP_TARGET=none is expected.
 */
export async function checkBackups(config: AppConfig): Promise<CheckResult> {
  const { backups, database } = config;
  if (database.url) {
    return { id: "backups", title: TITLE, status: "pass", detail: "PostgreSQL (DATABASE_URL): backing it up is the database's own job (pg_dump, or the managed service's backups); the app takes none" };
  }
  if (!backups.target) {
    return {
      id: "backups",
      title: TITLE,
      status: "warn",
      detail: backups.declinedOnPurpose ? "BACKUP_TARGET=none: the embedded database is not backed up, on purpose" : "BACKUP_TARGET is not set: the embedded database is not backed up, and production refuses to start this way",
      fix: "Set BACKUP_TARGET to a folder on another disk, s3://bucket/prefix or azure://container/prefix, and BACKUP_SCHEDULE (docs/backups.md).",
    };
  }
  try {
    const target = openBackupTarget(backups.target);
    const [latest] = await listVerifiedBackups(target);
    await target.writeBytes(PROBE_FILE, Buffer.from(JSON.stringify({ checkedAt: new Date().toISOString() })));
    const readBack = await target.readBytes(PROBE_FILE);
    await target.remove(PROBE_FILE);
    if (!readBack) throw new BackupError("TARGET_REFUSED", `The backup target ${target.description} accepted a write but did not give it back.`);
    const schedule = backups.schedule ? `scheduled "${backups.schedule}"` : "no BACKUP_SCHEDULE (only npm run backup)";
    return {
      id: "backups",
      title: TITLE,
      status: backups.key || backups.target.kind === "folder" ? "pass" : "warn",
      detail: `${target.description} reachable and writable; ${latest ? `newest verified backup ${latest}` : "no backup in it yet"}; ${schedule}; keeps ${backups.keep}${backups.key ? "; encrypted" : "; not encrypted"}`,
      ...(backups.key || backups.target.kind === "folder" ? {} : { fix: "Set BACKUP_ENCRYPTION_KEY: backups hold emails and document names (production requires it for an object store unless BACKUP_ENCRYPTION=none)." }),
    };
  } catch (error) {
    return {
      id: "backups",
      title: TITLE,
      status: "fail",
      detail: error instanceof BackupError ? error.message : `the backup target could not be used (${(error as Error).name})`,
      fix: "Check BACKUP_TARGET and the target's credentials (AWS_* for S3, AZURE_STORAGE_CONNECTION_STRING for Azure), then run npm run doctor again.",
    };
  }
}
