import { hashFileMd5 } from "@/lib/upload/md5";
import { xhrPut } from "@/lib/upload/xhr-put";

function withQuery(url: URL, params: Record<string, string>): string {
  const next = new URL(url);
  for (const [name, value] of Object.entries(params)) next.searchParams.set(name, value);
  return next.href;
}

/**
 * MD5 of one block, base64, on the calling thread: for a one-off hash such as the first block that
 * recognises a file on resume. A block upload hashes its blocks in the worker (block-hasher.ts), whose
 * single streamer keeps memory flat across blocks. Streamed through a 1 MiB buffer: reading each 8 MiB block
 * whole grew the renderer by about 8 MiB per block in flight (bench:upload).
 */
export async function hashBlockMd5(block: Blob): Promise<string> {
  return (await hashFileMd5(block)).base64;
}

/** Put Block: stages one block (not yet part of the blob) under `blockId`. */
export async function putBlock(args: {
  url: URL;
  blockId: string;
  block: Blob;
  md5Base64: string;
  signal?: AbortSignal;
  onProgress?: (loaded: number) => void;
  /** See xhrPut: a block that stops moving is cut and retried alone instead of hanging the upload. */
  stallTimeoutMs?: number;
}): Promise<void> {
  await xhrPut({
    url: withQuery(args.url, { comp: "block", blockid: args.blockId }),
    headers: { "Content-Type": "application/octet-stream", "Content-MD5": args.md5Base64 },
    body: args.block,
    signal: args.signal,
    onProgress: args.onProgress,
    stallTimeoutMs: args.stallTimeoutMs,
  });
}

/**
 * Put Block List: commits the staged blocks, in order, as the blob. `x-ms-blob-content-md5` is stored as
 * the blob's MD5 (Azure does not check it here; each block's own MD5 was checked when it was staged).
 */
export async function putBlockList(args: {
  url: URL;
  blockIds: readonly string[];
  fileMd5Base64?: string;
  signal?: AbortSignal;
  stallTimeoutMs?: number;
}): Promise<void> {
  const headers: Record<string, string> = { "Content-Type": "application/xml", "x-ms-blob-content-type": "application/octet-stream" };
  if (args.fileMd5Base64) headers["x-ms-blob-content-md5"] = args.fileMd5Base64;
  const body = `<?xml version="1.0" encoding="utf-8"?><BlockList>${args.blockIds.map((id) => `<Latest>${id}</Latest>`).join("")}</BlockList>`;
  await xhrPut({ url: withQuery(args.url, { comp: "blocklist" }), headers, body, signal: args.signal, stallTimeoutMs: args.stallTimeoutMs });
}
