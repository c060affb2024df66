import "server-only";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import { extract, pack as createPack } from "tar-stream";
import { createArchiveReader, createArchiveWriter, readArchiveHeader, sealArchiveFile } from "@/lib/backup/archive-format";
import { BackupError } from "@/lib/backup/backup-error";
import { ARCHIVE_DATA_FOLDER, ARCHIVE_MANIFEST, takeOnlineSnapshot, type SnapshotFacts, type SnapshotTimings } from "@/lib/backup/snapshot";

/** What a backup says about itself: inside its archive (authenticated with it) and, for listing, beside it. */
export type BackupManifest = {
  id: string;
  /** ISO time of the snapshot's point. */
  createdAt: string;
  facts: SnapshotFacts;
};

/**
 * Writes a backup of the live database to `file`: a snapshot (lib/backup/snapshot.ts) as a gzipped tar with its
 * manifest last, encrypted when `key` is set. Level 1 compression: the data files compress about as well, and the
 * backup spends less of the one core the app serves from.
 */
export async function writeBackupArchive(client: PGlite, dataDir: string, file: string, key: Buffer | undefined, id: string): Promise<{ manifest: BackupManifest; timings: SnapshotTimings; sizeBytes: number }> {
  const pack = createPack();
  const written = pipeline(pack, createGzip({ level: 1 }), createArchiveWriter(key), createWriteStream(file, { mode: 0o600 }));
  try {
    const { facts, timings } = await takeOnlineSnapshot(client, dataDir, pack, id);
    const manifest: BackupManifest = { id, createdAt: new Date().toISOString(), facts };
    const bytes = Buffer.from(JSON.stringify(manifest));
    await new Promise<void>((resolve, reject) => pack.entry({ name: ARCHIVE_MANIFEST, size: bytes.length, mode: 0o600 }, bytes, (error) => (error ? reject(error) : resolve())));
    pack.finalize();
    await written;
    return { manifest, timings, sizeBytes: await sealArchiveFile(file) };
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => {});
    throw error;
  }
}

/** Only a backup's own entries, so that a crafted archive cannot write outside the folder it is unpacked into. */
function safeEntryName(name: string): string {
  const normalized = path.posix.normalize(name).replace(/\/+$/, "");
  if (normalized !== ARCHIVE_MANIFEST && !normalized.startsWith(`${ARCHIVE_DATA_FOLDER}/`) && normalized !== ARCHIVE_DATA_FOLDER) {
    throw new BackupError("CORRUPTED", "This backup is damaged: it holds a file outside its database folder.");
  }
  if (normalized.split("/").includes("..")) throw new BackupError("CORRUPTED", "This backup is damaged: it holds a path that leaves its folder.");
  return normalized;
}

/**
 * Unpacks a backup file into `intoDir` (its database files go to `intoDir/pgdata`) and answers its manifest. Throws
 * BackupError with a sentence for a file that is not a backup, truncated, damaged, or encrypted with another key.
 * What it wrote is unproven until it returns: the caller removes `intoDir` on failure.
 */
export async function unpackBackupArchive(file: string, key: Buffer | undefined, intoDir: string): Promise<BackupManifest> {
  const header = await readArchiveHeader(file);
  const reader = createArchiveReader(header, key);
  const untar = extract();
  let manifest: BackupManifest | undefined;
  untar.on("entry", (entryHeader, stream, next) => {
    const handle = async () => {
      const name = safeEntryName(entryHeader.name);
      const target = path.join(intoDir, name);
      if (entryHeader.type === "directory") {
        await mkdir(target, { recursive: true, mode: 0o700 });
        stream.resume();
        return;
      }
      if (name === ARCHIVE_MANIFEST) {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        manifest = JSON.parse(Buffer.concat(chunks).toString("utf8")) as BackupManifest;
        return;
      }
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await pipeline(stream, createWriteStream(target, { mode: 0o600 }));
    };
    handle().then(() => next(), (error: Error) => next(error));
  });
  try {
    await pipeline(createReadStream(file), reader, createGunzip(), untar);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    // With encryption, a changed byte usually trips gzip or tar before the tag is checked at the end.
    throw new BackupError("CORRUPTED", `This backup is damaged: ${header.encrypted ? "its contents fail authentication" : "its compressed data is corrupt"}. Use another backup.`, { cause: error });
  }
  if (!manifest) throw new BackupError("CORRUPTED", "This backup is damaged: it has no manifest.");
  return manifest;
}
