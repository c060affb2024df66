/** Azure's limit on blocks in one blob; with 8 MiB blocks that is ~390 GiB, far above any document. */
export const MAX_BLOCKS = 50_000;

export type BlockRange = { index: number; start: number; end: number };

/** The blocks a file is cut into; the block size grows past the configured one only if the file would need more than 50,000. */
export function planBlocks(size: number, preferredBlockSize: number): { blockSize: number; count: number } {
  const blockSize = Math.max(preferredBlockSize, Math.ceil(size / MAX_BLOCKS));
  return { blockSize, count: Math.max(1, Math.ceil(size / blockSize)) };
}

export function blockRange(index: number, size: number, blockSize: number): BlockRange {
  return { index, start: index * blockSize, end: Math.min(size, (index + 1) * blockSize) };
}

/** FNV-1a: a stable short tag of the blob's path, so every id of this upload (and of its resume) is the same. */
function pathTag(path: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

/**
 * Azure wants every block id of a blob to be base64 of the same length (≤ 64 bytes). Ours: the blob path's
 * tag and the block index in 5 digits (MAX_BLOCKS − 1 fits), so a resumed upload names its blocks the same way.
 */
export function blockId(blobPath: string, index: number): string {
  return btoa(`${pathTag(blobPath)}-${String(index).padStart(5, "0")}`);
}
