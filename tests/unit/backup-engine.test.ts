import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, truncateSync, writeFileSync, existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { listVerifiedBackups, archiveName } from "@/lib/backup/backup-catalog";
import { BackupError } from "@/lib/backup/backup-error";
import { restoreBackup } from "@/lib/backup/restore-backup";
import { runBackup, type BackupResult } from "@/lib/backup/run-backup";
import { FolderTarget } from "@/lib/backup/targets/folder-target";
import { S3Target } from "@/lib/backup/targets/s3-target";
import { openDatabase, PGLITE_START_PARAMS, type OpenDatabase } from "@/lib/db/client";

const root = realpathSync(mkdtempSync(join(tmpdir(), "esign-backup-engine-test-")));
const key = randomBytes(32);
const target = new FolderTarget(join(root, "backups"));
mkdirSync(target.dir);
let live: OpenDatabase;
let first: BackupResult;

const embedded = () => live.embedded!;
const rowsOf = async (client: PGlite) => (await client.query<{ n: number }>("select count(*)::int as n from backup_probe")).rows[0]!.n;
const restoredRows = async (dir: string) => {
  const client = await PGlite.create({ dataDir: dir, startParams: PGLITE_START_PARAMS });
  try {
    return await rowsOf(client);
  } finally {
    await client.close();
  }
};
/** Runs `action`, expecting a BackupError with `code`, and answers its sentence. */
const refusal = async (action: Promise<unknown>, code: string) => {
  const error = await action.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(BackupError);
  expect((error as BackupError).code).toBe(code);
  return (error as BackupError).message;
};
/** Every file name under `dir`, to show that a refused restore changed nothing. */
const listing = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : []);

beforeAll(async () => {
  live = await openDatabase({ dir: join(root, "db") });
  await embedded().client.exec("create table backup_probe (id serial primary key, note text not null)");
  await embedded().client.exec("insert into backup_probe (note) select 'row ' || g from generate_series(1, 2000) g");
  first = await runBackup(embedded(), { target, key, keep: 2 });
}, 120_000);

afterAll(async () => {
  await live?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("online backup of the embedded database", () => {
  it("holds every row committed before it began, and none past the point its counts were taken", async () => {
    const acknowledged: number[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const { rows } = await embedded().client.query<{ id: number }>("insert into backup_probe (note) values ('during') returning id");
        acknowledged.push(rows[0]!.id);
        // PGlite answers within microtasks: without a turn of the event loop, this loop would starve the backup's I/O.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = [...acknowledged];
    const result = await runBackup(embedded(), { target, key, keep: 2 });
    writing = false;
    await writer;
    const restoreDir = join(root, "restored-under-writes");
    await restoreBackup({ dataDir: restoreDir, source: { kind: "id", id: result.id }, target, key, replace: false });
    const client = await PGlite.create({ dataDir: restoreDir, startParams: PGLITE_START_PARAMS });
    try {
      const ids = new Set((await client.query<{ id: number }>("select id from backup_probe")).rows.map((r) => r.id));
      expect(before.length).toBeGreaterThan(0);
      for (const id of before) expect(ids.has(id)).toBe(true);
      expect(ids.size).toBe(result.facts.counts.backup_probe);
      expect(ids.size).toBeLessThan(2000 + acknowledged.length + 1);
    } finally {
      await client.close();
    }
    expect(result.exclusiveMs).toBeLessThan(result.snapshotMs);
  }, 120_000);

  it("keeps BACKUP_KEEP verified backups, removing the oldest only after a newer one is stored", async () => {
    await runBackup(embedded(), { target, key, keep: 2 });
    const ids = await listVerifiedBackups(target);
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(first.id);
    expect(existsSync(join(target.dir, archiveName(first.id)))).toBe(false);
  }, 60_000);
});

describe("restore", () => {
  it("puts the latest backup in an empty place, with its rows, and keeps a replaced folder aside", async () => {
    const dir = join(root, "restored-latest");
    const result = await restoreBackup({ dataDir: dir, source: { kind: "latest" }, target, key, replace: false });
    const latest = (await listVerifiedBackups(target))[0];
    expect(result.id).toBe(latest);
    const rows = await restoredRows(dir);
    expect(rows).toBeGreaterThanOrEqual(2000);
    const refusedNotEmpty = await refusal(restoreBackup({ dataDir: dir, source: { kind: "latest" }, target, key, replace: false }), "FOLDER_NOT_EMPTY");
    expect(refusedNotEmpty).toMatch(/--replace/);
    const replaced = await restoreBackup({ dataDir: dir, source: { kind: "latest" }, target, key, replace: true });
    expect(replaced.keptAside).toBeDefined();
    expect(await restoredRows(replaced.keptAside!)).toBe(rows);
  }, 120_000);

  it("refuses the folder of a running instance (the OS lock), changing nothing", async () => {
    const before = listing(embedded().dataDir);
    const message = await refusal(restoreBackup({ dataDir: embedded().dataDir, source: { kind: "latest" }, target, key, replace: true }), "FOLDER_IN_USE");
    expect(message).toMatch(/Stop the app/);
    expect(listing(embedded().dataDir)).toEqual(before);
  });

  describe("refuses a bad backup with a sentence, and changes nothing", () => {
    const copyOfLatest = async (name: string) => {
      const id = (await listVerifiedBackups(target))[0]!;
      const file = join(root, name);
      writeFileSync(file, readFileSync(join(target.dir, archiveName(id))));
      return file;
    };
    const refusedFile = async (file: string, code: string, withKey = key) => {
      const dir = join(root, `untouched-${code}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "marker"), "kept");
      const before = listing(root);
      const message = await refusal(restoreBackup({ dataDir: dir, source: { kind: "file", file }, target, key: withKey, replace: true }), code);
      expect(listing(root)).toEqual(before);
      expect(readFileSync(join(dir, "marker"), "utf8")).toBe("kept");
      return message;
    };

    it("a truncated one", async () => {
      const file = await copyOfLatest("truncated.backup");
      truncateSync(file, Math.floor(readFileSync(file).length / 2));
      expect(await refusedFile(file, "TRUNCATED")).toMatch(/truncated: it holds \d+ of its \d+ bytes/);
    });

    it("a corrupted one", async () => {
      const file = await copyOfLatest("corrupted.backup");
      const bytes = readFileSync(file);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      writeFileSync(file, bytes);
      expect(await refusedFile(file, "CORRUPTED")).toMatch(/damaged/);
    });

    it("one opened with the wrong key", async () => {
      const file = await copyOfLatest("wrong-key.backup");
      expect(await refusedFile(file, "WRONG_KEY", randomBytes(32))).toMatch(/encrypted with another key/);
    });

    it("one from a newer schema", async () => {
      const client = embedded().client;
      await client.query("insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-version', 9999999999999)");
      let newer: BackupResult;
      try {
        newer = await runBackup(embedded(), { target: new FolderTarget(mkdtempSync(join(root, "newer-"))), key, keep: 1 });
      } finally {
        await client.query("delete from drizzle.__drizzle_migrations where hash = 'from-a-newer-version'");
      }
      const file = join(root, "newer.backup");
      writeFileSync(file, readFileSync(join(root, readdirSync(root).find((n) => n.startsWith("newer-"))!, archiveName(newer.id))));
      expect(await refusedFile(file, "NEWER_SCHEMA")).toMatch(/newer version of the app/);
    }, 60_000);

    it("a target it cannot reach", async () => {
      process.env.AWS_ENDPOINT_URL_S3 = "http://127.0.0.1:9";
      process.env.AWS_ACCESS_KEY_ID = "unit-test-access-key";
      process.env.AWS_SECRET_ACCESS_KEY = "unit-test-secret-key-never-shown";
      try {
        const dir = join(root, "untouched-unreachable");
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, "marker"), "kept");
        const message = await refusal(restoreBackup({ dataDir: dir, source: { kind: "latest" }, target: new S3Target("backups", "esign"), key, replace: true }), "TARGET_UNREACHABLE");
        expect(message).toMatch(/s3:\/\/backups\/esign could not be reached/);
        expect(message).not.toMatch(/unit-test-secret|unit-test-access/);
        expect(listing(dir)).toEqual(["marker"]);
      } finally {
        delete process.env.AWS_ENDPOINT_URL_S3;
        delete process.env.AWS_ACCESS_KEY_ID;
        delete process.env.AWS_SECRET_ACCESS_KEY;
      }
    });
  });
});
