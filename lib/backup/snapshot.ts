import "server-only";
import { createReadStream } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Pack } from "tar-stream";

/** Where a backup's database files sit inside its tar, beside `manifest.json`. */
export const ARCHIVE_DATA_FOLDER = "pgdata";
export const ARCHIVE_MANIFEST = "manifest.json";

/**
 * What the live database held at the snapshot's point: the verification compares a restored copy with it.
 * `migrations` are drizzle's migration hashes in order; `counts` is every table's row count (public schema).
 */
export type SnapshotFacts = { migrations: string[]; counts: Record<string, number> };

export type SnapshotTimings = {
  /** The whole snapshot. */
  ms: number;
  /** How long other queries waited on it: the checkpoint at the start, and the counts and WAL copy at the end. */
  exclusiveMs: number;
};

/** Files in the data folder that are not the database's: the app's lock file and its control socket (lib/backup). */
const NOT_DATABASE_FILES = new Set(["partner-app.lock", "backup.sock", "postmaster.pid", "postmaster.opts", "backup_label", "tablespace_map"]);
/** Copied at the end, while the database is held (see takeOnlineSnapshot). */
const WAL_FOLDER = "pg_wal";
const WAL_SEGMENT_NAME = /^[0-9A-F]{24}$/;

/** Reads exactly `size` bytes of a file that may change meanwhile: zero-padded when it shrank, cut when it grew. */
async function* exactBytes(file: string, size: number): AsyncGenerator<Buffer> {
  let sent = 0;
  if (size > 0) {
    // 1 MiB reads: the copy advances one read per turn of the event loop, which requests share.
    for await (const chunk of createReadStream(file, { start: 0, end: size - 1, highWaterMark: 1024 * 1024 })) {
      sent += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  }
  // A relation truncated meanwhile: its pages come back from the WAL, like pg_basebackup's zero padding.
  if (sent < size) yield Buffer.alloc(size - sent);
}

async function addFile(pack: Pack, name: string, file: string): Promise<void> {
  const { size, mode, mtime } = await stat(file);
  const entry = pack.entry({ name, size, mode, mtime, type: "file" });
  for await (const chunk of exactBytes(file, size)) {
    if (!entry.write(chunk)) await new Promise<void>((resolve) => entry.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => entry.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function addBytes(pack: Pack, name: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => pack.entry({ name, size: bytes.length, mode: 0o600 }, bytes, (error) => (error ? reject(error) : resolve())));
}

/** Every file of the data folder but the WAL and what is not the database's, as paths relative to it. */
async function databaseFiles(dataDir: string, relative = ""): Promise<{ files: string[]; folders: string[] }> {
  const files: string[] = [];
  const folders: string[] = [relative];
  for (const entry of await readdir(path.join(dataDir, relative), { withFileTypes: true })) {
    const name = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (name === WAL_FOLDER) continue;
      const inner = await databaseFiles(dataDir, name);
      files.push(...inner.files);
      folders.push(...inner.folders);
    } else if (entry.isFile() && !(relative === "" && NOT_DATABASE_FILES.has(entry.name))) {
      files.push(name);
    }
  }
  return { files, folders };
}

/**
 * A database's migrations and per-table row counts: of the live one inside the transaction that ends a backup
 * (nothing can write in between), and of a restored copy to compare with it.
 */
export async function captureFacts(tx: Pick<Transaction, "query">): Promise<SnapshotFacts> {
  const migrations = (await tx.query<{ hash: string }>(`select hash from drizzle.__drizzle_migrations order by id`)).rows.map((r) => r.hash);
  const tables = (await tx.query<{ name: string }>(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by c.relname`)).rows;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    counts[name] = (await tx.query<{ n: number }>(`select count(*)::float8 as n from "${name.replaceAll('"', '""')}"`)).rows[0]?.n ?? 0;
  }
  return { migrations, counts };
}

/** The WAL segment names from the backup's start segment to the one holding its stop position, in order. */
export function walSegmentsOf(names: string[], startSegment: string, stopSegment: string): string[] {
  return names.filter((n) => WAL_SEGMENT_NAME.test(n) && n >= startSegment && n <= stopSegment).sort();
}

/** PostgreSQL's name of the WAL segment holding `lsn` ("X/Y") on timeline `timeline`, for 16 MiB segments. */
export function walSegmentOf(lsn: string, timeline: string, segmentBytes = 16 * 1024 * 1024): string {
  const [high = 0n, low = 0n] = lsn.split("/").map((part) => BigInt(`0x${part}`));
  const position = (high << 32n) | low;
  const segment = position / BigInt(segmentBytes);
  const perId = 0x1_0000_0000n / BigInt(segmentBytes);
  const hex = (n: bigint) => n.toString(16).toUpperCase().padStart(8, "0");
  return `${timeline}${hex(segment / perId)}${hex(segment % perId)}`;
}

/**
 * A consistent copy of the live embedded database into `pack`, taken by the process that holds its folder, while it
 * serves. PostgreSQL's own online base backup: `pg_backup_start` (a checkpoint), the data files copied from the
 * disk while the app keeps writing (torn or changing pages are made whole by the WAL: full-page writes are forced
 * during a backup), then in one transaction — every other query waits for it — the row counts, `pg_backup_stop`,
 * and the WAL written since the start. Opening the copy replays that WAL to exactly the point of the counts: a
 * transaction committed before it is wholly in, any later one wholly out. The database is held only for the
 * checkpoint and that last step (`exclusiveMs`), never for the file copy. The caller finalizes `pack`.
 */
export async function takeOnlineSnapshot(client: PGlite, dataDir: string, pack: Pack, label: string): Promise<{ facts: SnapshotFacts; timings: SnapshotTimings }> {
  const started = performance.now();
  let exclusiveMs = 0;
  let timed = performance.now();
  await client.query(`select pg_backup_start($1, true)`, [label]);
  exclusiveMs += performance.now() - timed;
  let stopped = false;
  try {
    const { files, folders } = await databaseFiles(dataDir);
    for (const folder of folders) if (folder) pack.entry({ name: `${ARCHIVE_DATA_FOLDER}/${folder}`, type: "directory", mode: 0o700 });
    for (const file of files) {
      try {
        await addFile(pack, `${ARCHIVE_DATA_FOLDER}/${file}`, path.join(dataDir, file));
      } catch (error) {
        // A file dropped meanwhile (a table or a temporary file removed): the WAL replays its removal.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    timed = performance.now();
    const end = await client.transaction(async (tx) => {
      const facts = await captureFacts(tx);
      const stop = (await tx.query<{ lsn: string; labelfile: string; spcmapfile: string }>(`select lsn::text, labelfile, spcmapfile from pg_backup_stop(false)`)).rows[0];
      stopped = true;
      if (!stop) throw new Error("pg_backup_stop answered no row");
      const startSegment = /\(file ([0-9A-F]{24})\)/.exec(stop.labelfile)?.[1];
      if (!startSegment) throw new Error("pg_backup_stop gave a backup label without its start segment");
      const stopSegment = walSegmentOf(stop.lsn, startSegment.slice(0, 8));
      const walDir = path.join(dataDir, WAL_FOLDER);
      const segments = walSegmentsOf(await readdir(walDir), startSegment, stopSegment);
      // Read while held, so that no later WAL is in the copy; packed (compressed, encrypted) after.
      const wal = await Promise.all(segments.map(async (name) => ({ name, bytes: await readFile(path.join(walDir, name)) })));
      return { facts, stop, wal };
    });
    exclusiveMs += performance.now() - timed;
    pack.entry({ name: `${ARCHIVE_DATA_FOLDER}/${WAL_FOLDER}`, type: "directory", mode: 0o700 });
    pack.entry({ name: `${ARCHIVE_DATA_FOLDER}/${WAL_FOLDER}/archive_status`, type: "directory", mode: 0o700 });
    for (const { name, bytes } of end.wal) await addBytes(pack, `${ARCHIVE_DATA_FOLDER}/${WAL_FOLDER}/${name}`, bytes);
    await addBytes(pack, `${ARCHIVE_DATA_FOLDER}/backup_label`, Buffer.from(end.stop.labelfile));
    if (end.stop.spcmapfile) await addBytes(pack, `${ARCHIVE_DATA_FOLDER}/tablespace_map`, Buffer.from(end.stop.spcmapfile));
    return { facts: end.facts, timings: { ms: performance.now() - started, exclusiveMs } };
  } finally {
    // A backup left started would refuse the next one ("a backup is already in progress in this session").
    if (!stopped) await client.query(`select pg_backup_stop(false)`).catch(() => {});
  }
}
