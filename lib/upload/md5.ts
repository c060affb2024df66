import { createMD5, type IHasher } from "hash-wasm";

/** How often hashing reports progress: often enough for a smooth bar, rarely enough to cost nothing. */
const MD5_PROGRESS_STEP_BYTES = 8 * 1024 * 1024;
const READ_BUFFER_BYTES = 1024 * 1024;

export type FileMd5 = { base64: string; hex: string };

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * MD5 of a file, streamed from disk into an incremental wasm hasher through one reused 1 MiB buffer
 * (a BYOB reader), so memory stays flat whatever the file size. The app runs it inside a Web Worker:
 * buffered reads resolve as microtasks, which on the main thread would starve the page of frames.
 * Progress is reported about every 8 MiB. `hasher` lets a caller that hashes many blocks one after another
 * reuse one wasm instance (each `createMD5()` is a new instance with its own memory, freed only by GC).
 */
export async function hashFileMd5(file: Blob, onProgress?: (hashedBytes: number) => void, hasher?: IHasher): Promise<FileMd5> {
  hasher ??= await createMD5();
  hasher.init();
  const reader = file.stream().getReader({ mode: "byob" });
  let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
  let hashed = 0;
  let reported = 0;
  for (;;) {
    const { done, value } = await reader.read(new Uint8Array(buffer));
    if (done || !value) break;
    hasher.update(value);
    hashed += value.byteLength;
    // The read transferred our buffer into `value`; take it back for the next read.
    buffer = value.buffer as ArrayBuffer;
    if (hashed - reported >= MD5_PROGRESS_STEP_BYTES) {
      reported = hashed;
      onProgress?.(hashed);
    }
  }
  if (reported !== hashed || file.size === 0) onProgress?.(hashed);
  const digest = hasher.digest("binary");
  return { base64: toBase64(digest), hex: toHex(digest) };
}

/** Azure reports MD5s as base64; people compare hex (as `md5sum` prints it). */
export function md5Base64ToHex(base64: string): string {
  return toHex(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
}
