import "server-only";
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { open } from "node:fs/promises";
import { Transform, type TransformCallback } from "node:stream";
import { BackupError } from "@/lib/backup/backup-error";

/*
 * A backup file: a fixed header, then the gzipped tar, encrypted with AES-256-GCM when a key is set.
 *   0  "ESIGNBAK"        magic
 *   8  1 byte            format version (1)
 *   9  1 byte            0 = plain, 1 = AES-256-GCM
 *  10  8 bytes           the file's total length, written once the file is complete (so a cut-off copy says so)
 *  18  8 bytes           key id: the first 8 bytes of HMAC-SHA256(key, "esign-backup-key-id"), zero when plain
 *  26 12 bytes           GCM nonce, zero when plain
 *  38  ...               body
 *  end 16 bytes          GCM tag (encrypted files only)
 * The header except its length field is the cipher's additional data: changing it fails authentication.
 */
const MAGIC = Buffer.from("ESIGNBAK");
const VERSION = 1;
const LENGTH_OFFSET = 10;
export const HEADER_LENGTH = 38;
const TAG_LENGTH = 16;

export type ArchiveHeader = { encrypted: boolean; totalLength: number; keyId: Buffer; nonce: Buffer };

/** The key's id as stored in a header: tells a wrong key apart from a damaged file without revealing the key. */
export function keyIdOf(key: Buffer): Buffer {
  return createHmac("sha256", key).update("esign-backup-key-id").digest().subarray(0, 8);
}

function headerBytes(header: ArchiveHeader): Buffer {
  const bytes = Buffer.alloc(HEADER_LENGTH);
  MAGIC.copy(bytes, 0);
  bytes[8] = VERSION;
  bytes[9] = header.encrypted ? 1 : 0;
  bytes.writeBigUInt64BE(BigInt(header.totalLength), LENGTH_OFFSET);
  header.keyId.copy(bytes, 18);
  header.nonce.copy(bytes, 26);
  return bytes;
}

/** The header without its length field: what GCM authenticates. */
function additionalData(header: Buffer): Buffer {
  return Buffer.concat([header.subarray(0, LENGTH_OFFSET), header.subarray(LENGTH_OFFSET + 8)]);
}

/** Parses and checks a header; `fileLength` is the length of the file it was read from. */
export function parseHeader(bytes: Buffer, fileLength: number): ArchiveHeader {
  if (bytes.length < HEADER_LENGTH || !bytes.subarray(0, 8).equals(MAGIC)) {
    throw new BackupError("NOT_A_BACKUP", "This file is not a backup of this app (its first bytes are not a backup header).");
  }
  if (bytes[8] !== VERSION) throw new BackupError("NEWER_SCHEMA", `This backup has format version ${bytes[8]}, which this version of the app cannot read: restore it with the version that made it or a newer one.`);
  const totalLength = Number(bytes.readBigUInt64BE(LENGTH_OFFSET));
  if (fileLength < totalLength) {
    throw new BackupError("TRUNCATED", `This backup is truncated: it holds ${fileLength} of its ${totalLength} bytes. Use another backup, or copy this one again.`);
  }
  if (fileLength > totalLength) throw new BackupError("CORRUPTED", `This backup is damaged: it holds ${fileLength - totalLength} bytes more than its header says.`);
  return { encrypted: bytes[9] === 1, totalLength, keyId: Buffer.from(bytes.subarray(18, 26)), nonce: Buffer.from(bytes.subarray(26, 38)) };
}

/**
 * Turns the gzipped tar into a backup file's bytes (header, then the body, encrypted when `key` is given). The length
 * field stays zero: once the stream is written to a file, `sealArchiveFile` writes it.
 */
export function createArchiveWriter(key: Buffer | undefined): Transform {
  const header = { encrypted: Boolean(key), totalLength: 0, keyId: key ? keyIdOf(key) : Buffer.alloc(8), nonce: key ? randomBytes(12) : Buffer.alloc(12) };
  const head = headerBytes(header);
  const cipher = key ? createCipheriv("aes-256-gcm", key, header.nonce).setAAD(additionalData(head)) : undefined;
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (!started) {
        this.push(head);
        started = true;
      }
      done(null, cipher ? cipher.update(chunk) : chunk);
    },
    flush(done: TransformCallback) {
      if (!started) this.push(head);
      if (cipher) this.push(Buffer.concat([cipher.final(), cipher.getAuthTag()]));
      done();
    },
  });
}

/** Writes the finished file's length into its header. */
export async function sealArchiveFile(file: string): Promise<number> {
  const handle = await open(file, "r+");
  try {
    const { size } = await handle.stat();
    const length = Buffer.alloc(8);
    length.writeBigUInt64BE(BigInt(size));
    await handle.write(length, 0, 8, LENGTH_OFFSET);
    await handle.sync();
    return size;
  } finally {
    await handle.close();
  }
}

/** Reads and checks a backup file's header (magic, version, length against the file's). */
export async function readArchiveHeader(file: string): Promise<ArchiveHeader & { raw: Buffer }> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    const raw = Buffer.alloc(HEADER_LENGTH);
    const { bytesRead } = await handle.read(raw, 0, HEADER_LENGTH, 0);
    if (bytesRead < HEADER_LENGTH) throw new BackupError("NOT_A_BACKUP", "This file is not a backup of this app (it is shorter than a backup header).");
    return { ...parseHeader(raw, size), raw };
  } finally {
    await handle.close();
  }
}

/**
 * The body of a backup file read from its start (header included, already checked with readArchiveHeader): the
 * gzipped tar, decrypted and authenticated. GCM's tag is checked at the end, so whoever reads this stream must treat
 * what it got as unproven until the stream ends without an error.
 */
export function createArchiveReader(header: ArchiveHeader & { raw: Buffer }, key: Buffer | undefined): Transform {
  if (header.encrypted && !key) throw new BackupError("KEY_REQUIRED", "This backup is encrypted: set BACKUP_ENCRYPTION_KEY to the key it was made with.");
  if (header.encrypted && !keyIdOf(key!).equals(header.keyId)) {
    throw new BackupError("WRONG_KEY", "This backup was encrypted with another key than BACKUP_ENCRYPTION_KEY: set the key it was made with.");
  }
  const decipher = header.encrypted ? createDecipheriv("aes-256-gcm", key!, header.nonce).setAAD(additionalData(header.raw)) : undefined;
  let skip = HEADER_LENGTH;
  // The last 16 bytes are the tag, not ciphertext: always hold them back until the end.
  let held = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (skip > 0) {
        const dropped = Math.min(skip, chunk.length);
        skip -= dropped;
        chunk = chunk.subarray(dropped);
      }
      if (!decipher) return done(null, chunk);
      held = Buffer.concat([held, chunk]);
      if (held.length <= TAG_LENGTH) return done();
      const body = held.subarray(0, held.length - TAG_LENGTH);
      held = Buffer.from(held.subarray(held.length - TAG_LENGTH));
      done(null, decipher.update(body));
    },
    flush(done: TransformCallback) {
      if (!decipher) return done();
      try {
        decipher.setAuthTag(held);
        done(null, decipher.final());
      } catch (error) {
        done(new BackupError("CORRUPTED", "This backup is damaged: its contents fail authentication (a changed or corrupted byte). Use another backup.", { cause: error }));
      }
    },
  });
}

/** SHA-256 of a file, hex: stored beside each backup so a copy can be checked before it is opened. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  const handle = await open(file, "r");
  try {
    for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
  } finally {
    await handle.close().catch(() => {});
  }
  return hash.digest("hex");
}
