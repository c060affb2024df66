import type { CreateDocumentInput } from "@/lib/esign/schemas";
import { sasExpired, type ResumePoint } from "@/lib/upload/resume-point";

/**
 * An interrupted block upload as kept in IndexedDB, so a reload can resume it. Holds the file's facts (to
 * recognise it when the user picks it again), not its bytes. `point` holds the endpoint with its SAS; it
 * is dropped once that SAS expires (the upload then starts over on a new endpoint).
 */
export type SavedUpload = {
  id: string;
  /** Whose upload it is: the session's userKey (a hash of the subject); another user on the same browser does not see it. */
  userKey: string;
  fileName: string;
  size: number;
  lastModified: number;
  blockSize: number;
  /** Base64 MD5 of the file's first block: tells a different file with the same name, size and date apart. */
  firstBlockMd5: string;
  input: CreateDocumentInput;
  /**
   * The document the blocks go to: kept after the endpoint expires (with `point`), so that discarding the upload
   * closes its record and starting it over replaces it. Absent in uploads saved before it was kept.
   */
  itemId?: string;
  point: ResumePoint | null;
};

/** The saved upload with an expired endpoint forgotten (no SAS signature is kept past its expiry). */
export function withoutExpiredEndpoint(saved: SavedUpload, now = Date.now()): SavedUpload {
  return saved.point && sasExpired(saved.point.created.uploadendpoint, now) ? { ...saved, point: null } : saved;
}

/** Whether the file picked again is the one this upload was sending (size, last-modified, first block's MD5). */
export async function isSameFile(file: File, saved: SavedUpload, hashBlock: (block: Blob) => Promise<string>): Promise<boolean> {
  if (file.size !== saved.size || file.lastModified !== saved.lastModified) return false;
  return (await hashBlock(file.slice(0, saved.blockSize))) === saved.firstBlockMd5;
}
