/**
 * Files up to this size get an MD5 (computed in a Web Worker) sent as `x-ms-blob-content-md5`; larger
 * files are uploaded without one. Chosen from `npm run bench:upload` (figures in docs/documents.md).
 */
export const MD5_MAX_BYTES = 1024 * 1024 * 1024;

/** Whether to spend the time hashing this file before uploading it. */
export function shouldComputeMd5(size: number): boolean {
  return size <= MD5_MAX_BYTES;
}
