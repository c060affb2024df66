import { createMD5 } from "hash-wasm";

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

/** Hashes files or blocks one after another; each call resolves before the next one starts. */
export type Md5Streamer = (file: Blob, onProgress?: (hashedBytes: number) => void) => Promise<FileMd5>;

/**
 * MD5s streamed from disk into one incremental wasm hasher through one 1 MiB read buffer (a BYOB reader),
 * both kept for every file hashed with this streamer, so memory stays flat whatever the file size and
 * however many blocks. A fresh buffer per block made the renderer grow by about 1 MiB per 8 MiB block
 * (35 MiB at 256 MiB in bench:upload): the worker sits idle between blocks, so its GC rarely ran.
 * The app runs it inside a Web Worker: buffered reads resolve as microtasks, which on the main thread
 * would starve the page of frames. Progress is reported about every 8 MiB.
 */
export async function createMd5Streamer(): Promise<Md5Streamer> {
  const hasher = await createMD5();
  let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
  return async (file, onProgress) => {
    hasher.init();
    // A read that failed kept our buffer (it is detached): start again with a new one.
    if (buffer.byteLength === 0) buffer = new ArrayBuffer(READ_BUFFER_BYTES);
    const reader = file.stream().getReader({ mode: "byob" });
    let hashed = 0;
    let reported = 0;
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      // Every read transfers our buffer into `value`, the last one (done) too: take it back each time.
      if (value) buffer = value.buffer as ArrayBuffer;
      if (done || !value) break;
      hasher.update(value);
      hashed += value.byteLength;
      if (hashed - reported >= MD5_PROGRESS_STEP_BYTES) {
        reported = hashed;
        onProgress?.(hashed);
      }
    }
    if (reported !== hashed || file.size === 0) onProgress?.(hashed);
    const digest = hasher.digest("binary");
    return { base64: toBase64(digest), hex: toHex(digest) };
  };
}

/** MD5 of one file with a streamer of its own (see createMd5Streamer). */
export async function hashFileMd5(file: Blob, onProgress?: (hashedBytes: number) => void): Promise<FileMd5> {
  return (await createMd5Streamer())(file, onProgress);
}

/** Azure reports MD5s as base64; people compare hex (as `md5sum` prints it). */
export function md5Base64ToHex(base64: string): string {
  return toHex(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
}
