import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { listVerifiedBackups } from "@/lib/backup/backup-catalog";
import { BackupError } from "@/lib/backup/backup-error";
import { restoreBackup } from "@/lib/backup/restore-backup";
import { runBackup } from "@/lib/backup/run-backup";
import { AzureTarget } from "@/lib/backup/targets/azure-target";
import { readSideFile, writeSideFile, type BackupTarget } from "@/lib/backup/targets/backup-target";
import { FolderTarget } from "@/lib/backup/targets/folder-target";
import { S3Target } from "@/lib/backup/targets/s3-target";
import { openDatabase, PGLITE_START_PARAMS, type OpenDatabase } from "@/lib/db/client";
import { startAzurite, startS3rver, type RunningStore } from "../support/object-stores";
import { workerPort } from "../support/worker-port";

const root = realpathSync(mkdtempSync(join(tmpdir(), "esign-backup-targets-test-")));
const key = randomBytes(32);
const stores: RunningStore[] = [];
let live: OpenDatabase;

beforeAll(async () => {
  mkdirSync(join(root, "folder"));
  mkdirSync(join(root, "s3"));
  mkdirSync(join(root, "azure"));
  const s3 = await startS3rver(workerPort(4740), join(root, "s3"), "backups");
  const azure = await startAzurite(workerPort(4741), join(root, "azure"), "backups");
  stores.push(s3, azure);
  // The SDKs read their usual settings from the environment, as in the app.
  Object.assign(process.env, s3.env, azure.env);
  live = await openDatabase({ dir: join(root, "db") });
  await live.embedded!.client.exec("create table backup_probe (id serial primary key, note text not null)");
  await live.embedded!.client.exec("insert into backup_probe (note) select 'row ' || g from generate_series(1, 500) g");
}, 120_000);

afterAll(async () => {
  await live?.close();
  for (const store of stores) await store.stop();
  rmSync(root, { recursive: true, force: true });
});

const targets: Array<[string, () => BackupTarget]> = [
  ["a folder", () => new FolderTarget(join(root, "folder"))],
  ["S3 (s3rver)", () => new S3Target("backups", "esign/prod")],
  ["Azure Blob (Azurite)", () => new AzureTarget("backups", "esign/prod")],
];

describe.each(targets)("backup target: %s", (_name, makeTarget) => {
  it("stores verified backups, keeps BACKUP_KEEP of them, and restores the latest with its rows", async () => {
    const target = makeTarget();
    const first = await runBackup(live.embedded!, { target, key, keep: 1 });
    await live.embedded!.client.exec("insert into backup_probe (note) values ('after the first backup')");
    const second = await runBackup(live.embedded!, { target, key, keep: 1 });
    expect(await listVerifiedBackups(target)).toEqual([second.id]);
    expect(second.id > first.id).toBe(true);
    const dir = join(root, `restored-${target.description.replace(/\W+/g, "-")}`);
    const restored = await restoreBackup({ dataDir: dir, source: { kind: "latest" }, target, key, replace: false });
    expect(restored.id).toBe(second.id);
    const client = await PGlite.create({ dataDir: dir, startParams: PGLITE_START_PARAMS });
    try {
      expect((await client.query<{ n: number }>("select count(*)::int as n from backup_probe")).rows[0]!.n).toBe(second.facts.counts.backup_probe);
    } finally {
      await client.close();
    }
  }, 120_000);

  it("keeps a small side file beside the backups", async () => {
    const target = makeTarget();
    expect(await readSideFile(target, "example-notes.json")).toBeUndefined();
    await writeSideFile(target, "example-notes.json", [{ user: "k1", at: "2026-11-28T00:00:00Z" }]);
    expect(await readSideFile(target, "example-notes.json")).toEqual([{ user: "k1", at: "2026-11-28T00:00:00Z" }]);
    expect(await listVerifiedBackups(target)).not.toContain("example-notes");
  });
});

describe("object-store credentials", () => {
  it("a refused S3 key is named as refused, and the error holds no credential", async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = "AKIAWRONGKEYID";
    process.env.AWS_SECRET_ACCESS_KEY = "a-wrong-secret-that-must-not-show";
    try {
      const error = await new S3Target("backups", "esign").list("").then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(BackupError);
      expect((error as BackupError).code).toBe("TARGET_REFUSED");
      expect((error as BackupError).message).toMatch(/s3:\/\/backups\/esign refused/);
      expect((error as BackupError).message).not.toMatch(/a-wrong-secret|AKIAWRONGKEYID/);
    } finally {
      process.env.AWS_ACCESS_KEY_ID = saved.id;
      process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });

  it("an unreachable Azure account is named as unreachable, without its key", async () => {
    const saved = process.env.AZURE_STORAGE_CONNECTION_STRING!;
    process.env.AZURE_STORAGE_CONNECTION_STRING = saved.replace(/127\.0\.0\.1:\d+/, "127.0.0.1:9");
    try {
      const error = await new AzureTarget("backups", "esign").list("").then(() => undefined, (e: unknown) => e);
      expect((error as BackupError).code).toBe("TARGET_UNREACHABLE");
      expect((error as BackupError).message).not.toMatch(/AccountKey|Eby8/);
    } finally {
      process.env.AZURE_STORAGE_CONNECTION_STRING = saved;
    }
  });
});
