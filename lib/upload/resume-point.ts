import type { CreateDocumentResult } from "@/lib/esign/schemas";
import type { FileMd5 } from "@/lib/upload/md5";

/** When and how to stage blocks (from the server's configuration, see lib/env.ts). */
export type BlockSettings = { thresholdBytes: number; blockSize: number; concurrency: number };

/** Where an interrupted block upload got to: enough to send only the missing blocks to the same blob. */
export type ResumePoint = {
  /** The document and its endpoint (with the SAS): the blocks are staged on that blob. */
  created: CreateDocumentResult;
  md5: FileMd5 | null;
  blockSize: number;
  /** Indexes of the blocks storage answered 201 for. */
  staged: number[];
};

/** The SAS expiry (`se`) of an upload endpoint, in ms since the epoch; null when it carries none. */
export function sasExpiry(endpoint: string): number | null {
  const se = URL.canParse(endpoint) ? new URL(endpoint).searchParams.get("se") : null;
  const at = se ? Date.parse(se) : NaN;
  return Number.isNaN(at) ? null : at;
}

/** True when the link has expired, or will within a minute (not worth starting with). */
export function sasExpired(endpoint: string, now = Date.now()): boolean {
  const expiry = sasExpiry(endpoint);
  return expiry !== null && expiry - 60_000 <= now;
}
