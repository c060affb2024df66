import { createMD5 } from "hash-wasm";

/** Big enough that per-call overhead vanishes, small enough that memory stays flat whatever the file size. */
export const MD5_CHUNK_BYTES = 8 * 1024 * 1024;

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
 * MD5 of a file, read slice by slice (only one 8 MiB slice in memory at a time) into an incremental
 * wasm hasher. Runs anywhere; the app calls it inside a Web Worker so the page stays responsive.
 */
export async function hashFileMd5(file: Blob, onProgress?: (hashedBytes: number) => void): Promise<FileMd5> {
  const hasher = await createMD5();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += MD5_CHUNK_BYTES) {
    const end = Math.min(offset + MD5_CHUNK_BYTES, file.size);
    hasher.update(new Uint8Array(await file.slice(offset, end).arrayBuffer()));
    onProgress?.(end);
  }
  const digest = hasher.digest("binary");
  return { base64: toBase64(digest), hex: toHex(digest) };
}

/** Azure reports MD5s as base64; people compare hex (as `md5sum` prints it). */
export function md5Base64ToHex(base64: string): string {
  return toHex(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
}
