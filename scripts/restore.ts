/**
 * `npm run restore -- <latest | backup id | file> [--replace]`: puts a backup of the embedded database in place of
 * DATABASE_DIR while no instance runs (docs/backups.md, "Restoring"). Every refusal is one sentence, and leaves
 * everything as it was. Reads the configuration the way `next start` does.
 */
import nextEnv from "@next/env";
import { BackupError } from "@/lib/backup/backup-error";
import { parseRestoreSource, restoreBackup } from "@/lib/backup/restore-backup";
import { openBackupTarget } from "@/lib/backup/targets/open-target";
import { ConfigError, parseBackupToolConfig } from "@/lib/env";

nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production", { info: () => {}, error: console.error });

const args = process.argv.slice(2);
const replace = args.includes("--replace");
const positional = args.filter((a) => !a.startsWith("--"));
const unknown = args.filter((a) => a.startsWith("--") && a !== "--replace");

try {
  if (unknown.length > 0 || positional.length > 1) throw new BackupError("NOT_CONFIGURED", `Usage: npm run restore -- <latest | backup id | file> [--replace] (not understood: ${[...unknown, ...positional.slice(1)].join(" ")})`);
  const { database, backups } = parseBackupToolConfig(process.env);
  if (database.url) throw new BackupError("NOT_EMBEDDED", "DATABASE_URL is set: restore PostgreSQL with its own tools (pg_restore, or the managed service's restore); see docs/backups.md.");
  const source = parseRestoreSource(positional[0]);
  const target = backups.target && source.kind !== "file" ? openBackupTarget(backups.target) : undefined;
  const result = await restoreBackup({ dataDir: database.dir, source, target, key: backups.key, replace });
  console.log(
    `Restored backup ${result.id} (taken ${result.createdAt}) into ${database.dir} in ${(result.ms / 1000).toFixed(1)} s, verified.` +
      (result.keptAside ? ` The folder it replaced is kept as ${result.keptAside}.` : "") +
      " Start the app: it applies any newer migrations. Users sign in again (sessions are not in backups).",
  );
} catch (error) {
  const message = error instanceof ConfigError || error instanceof BackupError ? error.message : `The restore failed: ${(error as Error).message}`;
  console.error(message.startsWith("Nothing was restored") || error instanceof ConfigError ? message : `${message} Nothing was restored.`);
  process.exitCode = 1;
}
