import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { randomBytes, randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restoreBackup } from "@/lib/backup/restore-backup";
import { runBackup } from "@/lib/backup/run-backup";
import { FolderTarget } from "@/lib/backup/targets/folder-target";
import { openDatabase, type OpenDatabase } from "@/lib/db/client";
import { documentRecordsFor } from "@/lib/documents/document-records";

/**
 * A backup taken while 20 clients create documents and report events through the app's own repository (the route
 * handlers' path to the database): it verifies, and every record acknowledged before the backup began is in it,
 * each with every event acknowledged before then.
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), "esign-backup-load-test-")));
const key = randomBytes(32);
const CLIENTS = 20;
let live: OpenDatabase;

beforeAll(async () => {
  live = await openDatabase({ dir: join(root, "db") });
}, 120_000);

afterAll(async () => {
  await live?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("a backup under load", () => {
  it("verifies, and holds every document and event acknowledged before it began", async () => {
    const records = documentRecordsFor(async () => live);
    /** Per acknowledged document: how many of its events were acknowledged, and when the last one was. */
    const acknowledged = new Map<string, { user: string; events: number; at: number }>();
    let running = true;
    const client = async (n: number) => {
      const user = `load-user-${n}`;
      while (running) {
        const itemId = randomUUID();
        const at = new Date().toISOString();
        await records.recordEvents(user, itemId, [{ id: randomUUID(), type: "created", at, fileId: randomUUID(), subdocid: 0, name: `load-${n}.pdf`, doctype: "contract" }], {});
        acknowledged.set(itemId, { user, events: 1, at: performance.now() });
        await records.recordEvents(user, itemId, [{ id: randomUUID(), type: "resumed", at, mode: "blocks", bytes: 1024 }], {});
        acknowledged.set(itemId, { user, events: 2, at: performance.now() });
        // A client's next document comes a moment later. Each commit waits for its WAL's fdatasync on the event loop's
        // thread, so clients without a pause would hold that thread between them and leave the backup's copy no turn.
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const began = performance.now();
    const before = new Map([...acknowledged].filter(([, ack]) => ack.at < began));
    const target = new FolderTarget(join(root, "backups"));
    mkdirSync(target.dir);
    const backup = await runBackup(live.embedded!, { target, key, keep: 1 }).finally(() => (running = false));
    await Promise.all(clients);
    expect(before.size).toBeGreaterThanOrEqual(CLIENTS);
    expect(acknowledged.size).toBeGreaterThan(before.size);

    const restoredDir = join(root, "restored");
    await restoreBackup({ dataDir: restoredDir, source: { kind: "latest" }, target, key, replace: false });
    const restored = await openDatabase({ dir: restoredDir });
    try {
      const restoredRecords = documentRecordsFor(async () => restored);
      for (const [itemId, ack] of before) {
        const found = await restoredRecords.getDocument(ack.user, itemId);
        expect(found, itemId).not.toBeNull();
        expect(found!.events.length, itemId).toBeGreaterThanOrEqual(ack.events);
      }
      expect(backup.facts.counts.documents).toBeGreaterThanOrEqual(before.size);
    } finally {
      await restored.close();
    }
  }, 420_000);
});
