import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackupError } from "@/lib/backup/backup-error";
import { ERASURE_LEDGER_FILE, publishErasureLedger } from "@/lib/backup/erasure-ledger-copy";
import { restoreBackup } from "@/lib/backup/restore-backup";
import { runBackup } from "@/lib/backup/run-backup";
import { FolderTarget } from "@/lib/backup/targets/folder-target";
import { openDatabase, type OpenDatabase } from "@/lib/db/client";
import { documentRecordsFor } from "@/lib/documents/document-records";
import { erasureRecordsFor, eraseUserRecordsIn, listErasuresIn } from "@/lib/erasure/user-erasure";
import { userRecordsFor } from "@/lib/operators/user-records";

// A backup taken before an erasure, restored after a lost disk: the erasure must win (issue 48 with issue 50).
const root = realpathSync(mkdtempSync(join(tmpdir(), "esign-backup-erasure-test-")));
const target = new FolderTarget(join(root, "backups"));
mkdirSync(target.dir);
const ctx = { requestId: "req-1", device: "Firefox 133 on Linux" };
const erased = `user-${randomUUID().slice(0, 12)}`;
const kept = `user-${randomUUID().slice(0, 12)}`;
let live: OpenDatabase;

/** A user record and one document with its `created` event. */
async function userWithDocument(userKey: string) {
  await userRecordsFor(async () => live).recordUserSignIn(userKey, { email: `${userKey}@example.test`, email_verified: true, name: "Hanako Yamada" });
  const at = new Date(Date.now() - 60_000).toISOString();
  await documentRecordsFor(async () => live).recordEvents(userKey, randomUUID(), [
    { id: randomUUID(), type: "created", at, fileId: randomUUID(), subdocid: 0, container: "documents", name: `Lease of ${userKey}`, doctype: "contract" },
  ], ctx);
}

/** What the restored folder holds of each user, and its ledger. */
async function restoredView(dir: string) {
  const restored = await openDatabase({ dir });
  try {
    const erasure = erasureRecordsFor(async () => restored);
    return {
      erased: await erasure.countUserRecords(erased),
      kept: await erasure.countUserRecords(kept),
      ledger: (await listErasuresIn(restored.db)).map((entry) => entry.userKey),
    };
  } finally {
    await restored.close();
  }
}

beforeAll(async () => {
  live = await openDatabase({ dir: join(root, "db") });
  await userWithDocument(erased);
  await userWithDocument(kept);
  // The backup knows both users; the erasure comes after it, and its ledger goes beside the backups.
  await runBackup(live.embedded!, { target, key: undefined, keep: 3 });
  await eraseUserRecordsIn(live.db, erased);
  await publishErasureLedger(target, live.embedded!.client);
}, 120_000);

afterAll(async () => {
  await live?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("a restore of a backup taken before an erasure", () => {
  it("erases the user again before the database is put in place; everyone else's records stay", async () => {
    const view = await restoredView(await restoredLatest("restored"));
    expect(view.erased).toEqual({ documents: 0, events: 0, user: false });
    expect(view.kept).toEqual({ documents: 1, events: 1, user: true });
    expect(view.ledger).toEqual([erased]);
  }, 120_000);

  it("would bring the records back without the ledger beside the backups (what the step is for)", async () => {
    const dir = join(root, "restored-without-ledger");
    await restoreBackup({ dataDir: dir, source: { kind: "latest" }, target, key: undefined, replace: false, steps: [] });
    expect((await restoredView(dir)).erased.documents).toBe(1);
  }, 120_000);

  it("refuses a ledger beside the backups that is not one, and changes nothing", async () => {
    const file = join(target.dir, ERASURE_LEDGER_FILE);
    writeFileSync(file, JSON.stringify({ entries: [{ userKey: erased, erasedAt: "yesterday" }] }));
    const dir = join(root, "restored-bad-ledger");
    const error = await restoreBackup({ dataDir: dir, source: { kind: "latest" }, target, key: undefined, replace: false }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as BackupError).message).toMatch(/erasures kept beside the backups.*is not an erasure ledger/);
    expect(existsSync(dir)).toBe(false);
  }, 120_000);
});

async function restoredLatest(name: string): Promise<string> {
  const dir = join(root, name);
  await restoreBackup({ dataDir: dir, source: { kind: "latest" }, target, key: undefined, replace: false });
  return dir;
}
