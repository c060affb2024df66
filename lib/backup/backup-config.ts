import "server-only";
import path from "node:path";
import { Cron } from "croner";

export type BackupTargetConfig =
  | { kind: "folder"; dir: string }
  | { kind: "s3"; bucket: string; prefix: string }
  | { kind: "azure"; container: string; prefix: string };

/**
 * Backups of the embedded database (docs/backups.md). `target` undefined: none (BACKUP_TARGET unset or `none`).
 * `key` undefined: backups are not encrypted.
 */
export type BackupConfig = {
  target: BackupTargetConfig | undefined;
  /** BACKUP_TARGET=none: no backups, on purpose. */
  declinedOnPurpose: boolean;
  key: Buffer | undefined;
  /** How many verified backups are kept (BACKUP_KEEP). */
  keep: number;
  /** Cron syntax (BACKUP_SCHEDULE), or undefined for on-demand backups only. */
  schedule: string | undefined;
};

export const DEFAULT_BACKUP_KEEP = 7;
const TARGET_EXAMPLES = "a folder (e.g. /mnt/backups/esign), s3://bucket/prefix or azure://container/prefix";

function parseTarget(value: string, problems: string[]): BackupTargetConfig | undefined {
  const objectStore = /^(s3|azure):\/\/([^/]+)\/?(.*)$/.exec(value);
  if (objectStore) {
    const [, scheme, place = "", prefix = ""] = objectStore;
    const cleanPrefix = prefix.replace(/^\/+|\/+$/g, "");
    return scheme === "s3" ? { kind: "s3", bucket: place, prefix: cleanPrefix } : { kind: "azure", container: place, prefix: cleanPrefix };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    problems.push(`BACKUP_TARGET must be ${TARGET_EXAMPLES}, or none (got a URL of another kind)`);
    return undefined;
  }
  return { kind: "folder", dir: path.resolve(value) };
}

/** 32 bytes, given as 64 hex digits or base64 (`openssl rand -base64 32`). */
function parseKey(value: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, "hex");
  if (/^[A-Za-z0-9+/]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, "base64");
    if (bytes.length === 32) return bytes;
  }
  return undefined;
}

/**
 * The BACKUP_* keys. `embedded` says the app runs on the embedded database (no DATABASE_URL): only then are backups
 * the app's job, and in production one of BACKUP_TARGET or BACKUP_TARGET=none is required.
 */
export function parseBackupConfig(source: Record<string, string | undefined>, { production, embedded }: { production: boolean; embedded: boolean }): { config: BackupConfig; problems: string[] } {
  const problems: string[] = [];
  const rawTarget = source.BACKUP_TARGET?.trim() ?? "";
  const declinedOnPurpose = rawTarget.toLowerCase() === "none";
  const target = rawTarget && !declinedOnPurpose ? parseTarget(rawTarget, problems) : undefined;
  if (production && embedded && !rawTarget) {
    problems.push(`BACKUP_TARGET is required in production with the embedded database: ${TARGET_EXAMPLES}, or none to run without backups on purpose (docs/backups.md)`);
  }
  const rawKey = source.BACKUP_ENCRYPTION_KEY?.trim() ?? "";
  const key = rawKey ? parseKey(rawKey) : undefined;
  if (rawKey && !key) problems.push("BACKUP_ENCRYPTION_KEY must be 32 random bytes as base64 or 64 hex digits (make one with `openssl rand -base64 32`)");
  const encryption = source.BACKUP_ENCRYPTION?.trim().toLowerCase() ?? "";
  if (encryption && encryption !== "none") problems.push("BACKUP_ENCRYPTION must be none (to keep object-store backups unencrypted on purpose) or unset");
  if (encryption === "none" && rawKey) problems.push("BACKUP_ENCRYPTION=none and BACKUP_ENCRYPTION_KEY contradict each other: unset one of them");
  if (production && target && target.kind !== "folder" && !rawKey && encryption !== "none") {
    problems.push(`BACKUP_ENCRYPTION_KEY is required in production for an object-store BACKUP_TARGET (backups hold emails and document names); set BACKUP_ENCRYPTION=none to store them unencrypted on purpose`);
  }
  const rawKeep = source.BACKUP_KEEP?.trim() ?? "";
  const keep = rawKeep ? Number(rawKeep) : DEFAULT_BACKUP_KEEP;
  if (!Number.isInteger(keep) || keep < 1 || keep > 1000) problems.push("BACKUP_KEEP must be a whole number of backups from 1 to 1000");
  const schedule = source.BACKUP_SCHEDULE?.trim() || undefined;
  if (schedule) {
    try {
      new Cron(schedule, { paused: true }).stop();
    } catch (error) {
      problems.push(`BACKUP_SCHEDULE must be cron syntax, e.g. "0 3 * * *" for 03:00 every day (${(error as Error).message})`);
    }
    if (!target) problems.push("BACKUP_SCHEDULE needs BACKUP_TARGET: where the scheduled backups go");
  }
  return { config: { target, declinedOnPurpose, key, keep: Number.isInteger(keep) ? keep : DEFAULT_BACKUP_KEEP, schedule }, problems };
}
