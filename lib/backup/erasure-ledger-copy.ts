import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { z } from "zod";
import { getConfig } from "@/lib/env";
import { readSideFile, writeSideFile, type BackupTarget } from "@/lib/backup/targets/backup-target";
import { openBackupTarget } from "@/lib/backup/targets/open-target";
import { getDatabase } from "@/lib/db/client";
import { schema } from "@/lib/db/schema";
import { listErasuresIn, reapplyErasuresIn } from "@/lib/erasure/user-erasure";
import { getLogger } from "@/lib/logging/logger";

/**
 * The erasure ledger (user key and time, nothing else) kept beside the backups, not only inside them: a backup taken
 * before an erasure still holds the user's records, and the copy beside it is how a restore knows to erase them again.
 */
export const ERASURE_LEDGER_FILE = "erasures.json";

const ledgerFileSchema = z.object({
  entries: z.array(z.object({ userKey: z.string().min(1).max(200), erasedAt: z.iso.datetime({ offset: true }) })),
});

/** Writes the embedded database's whole ledger beside the backups (it only grows, so the newest copy holds every older one). */
export async function publishErasureLedger(target: BackupTarget, client: PGlite): Promise<void> {
  await writeSideFile(target, ERASURE_LEDGER_FILE, { entries: await listErasuresIn(drizzle({ client, schema })) });
}

/**
 * After an erasure, on the embedded database with BACKUP_TARGET set: the ledger's copy beside the backups is brought
 * up to date at once, so that a disk lost before the next backup does not lose the erasure with it. A failure is
 * logged, never the erasure's: the next backup writes the copy again.
 */
export async function publishErasureLedgerAfterErasure(): Promise<void> {
  const { backups, database } = getConfig();
  if (database.url || !backups.target) return;
  const target = openBackupTarget(backups.target);
  try {
    const { embedded } = await getDatabase();
    if (embedded) await publishErasureLedger(target, embedded.client);
  } catch (error) {
    getLogger().error({ msg: `backup: the erasure ledger beside the backups in ${target.description} could not be updated (${(error as Error).message}); the next backup writes it` });
  }
}

/**
 * A restore's step: every erasure in the copy beside the backups is applied to the restored database (idempotent:
 * records the user made after an erasure stay), so a backup taken before an erasure never brings the records back.
 * A copy that is there but unreadable stops the restore; no copy (no erasure ever, or a file restored without a
 * target) applies nothing.
 */
export async function reapplyErasuresBesideBackups(client: PGlite, target: BackupTarget | undefined): Promise<void> {
  if (!target) return;
  const file = await readSideFile<unknown>(target, ERASURE_LEDGER_FILE);
  if (file === undefined) return;
  const parsed = ledgerFileSchema.safeParse(file);
  if (!parsed.success) throw new Error(`${ERASURE_LEDGER_FILE} in ${target.description} is not an erasure ledger`);
  await reapplyErasuresIn(drizzle({ client, schema }), parsed.data.entries);
}
