import "server-only";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { BackupManifest } from "@/lib/backup/backup-archive";
import { BackupError } from "@/lib/backup/backup-error";
import { ARCHIVE_DATA_FOLDER, captureFacts, type SnapshotFacts } from "@/lib/backup/snapshot";
import { PGLITE_START_PARAMS } from "@/lib/db/client";
import { MIGRATIONS_FOLDER } from "@/lib/db/migrate";

/** Refuses a backup whose database has a migration this build does not know: it was made by a newer version. */
export function assertSchemaKnown(manifest: BackupManifest, migrationsFolder = MIGRATIONS_FOLDER): void {
  const known = new Set(readMigrationFiles({ migrationsFolder }).map((m) => m.hash));
  const unknown = manifest.facts.migrations.filter((hash) => !known.has(hash));
  if (unknown.length > 0) {
    throw new BackupError(
      "NEWER_SCHEMA",
      `This backup comes from a newer version of the app: its database has ${unknown.length} migration(s) this version does not know. Restore it with the version that made it, or a newer one.`,
    );
  }
}

/** What differs between the live database at the snapshot and the copy: one phrase per difference. */
export function compareFacts(expected: SnapshotFacts, actual: SnapshotFacts): string[] {
  const differences: string[] = [];
  if (expected.migrations.join(",") !== actual.migrations.join(",")) {
    differences.push(`migrations: ${expected.migrations.length} at the snapshot, ${actual.migrations.length} in the copy`);
  }
  for (const table of new Set([...Object.keys(expected.counts), ...Object.keys(actual.counts)])) {
    if (expected.counts[table] !== actual.counts[table]) {
      differences.push(`${table}: ${expected.counts[table] ?? "no table"} rows at the snapshot, ${actual.counts[table] ?? "no table"} in the copy`);
    }
  }
  return differences;
}

/**
 * Opens an unpacked backup (`dir/pgdata`) in a scratch PGlite, which replays the WAL the backup holds, and checks
 * that its migrations and each table's row count are what the live database had at the snapshot. Closed cleanly
 * afterwards (a shutdown checkpoint: the folder no longer needs its WAL replayed), so a restore can move it in.
 */
export async function verifyUnpackedBackup(dir: string, manifest: BackupManifest): Promise<{ ms: number }> {
  const started = performance.now();
  let scratch: PGlite;
  try {
    scratch = await PGlite.create({ dataDir: path.join(dir, ARCHIVE_DATA_FOLDER), startParams: PGLITE_START_PARAMS });
  } catch (error) {
    throw new BackupError("VERIFY_MISMATCH", `This backup does not open as a database (${(error as Error).message}).`, { cause: error });
  }
  try {
    const differences = compareFacts(manifest.facts, await captureFacts(scratch));
    if (differences.length > 0) throw new BackupError("VERIFY_MISMATCH", `This backup does not match the database it was taken from: ${differences.join("; ")}.`);
  } finally {
    await scratch.close();
  }
  return { ms: performance.now() - started };
}
