import { xhrPut } from "@/lib/upload/xhr-put";

export type PutBlobOptions = {
  /** The checked upload endpoint (blob URL with its SAS). */
  url: URL;
  /** The file as the user chose it: the browser streams it from disk, it is never read into JS memory. */
  file: Blob;
  /** Base64 MD5 of the file; storage refuses the bytes (400 Md5Mismatch) when they do not match it. */
  md5Base64?: string;
  signal?: AbortSignal;
  onProgress?: (loaded: number) => void;
};

export type PutBlobResult = {
  /** The MD5 storage computed and stored for the blob (base64), when it reports one. */
  storedMd5Base64: string | null;
};

/**
 * One Put Blob of the whole file to a SAS URL, with the two headers the spec requires.
 * Resolves on 2xx (201 expected); rejects with an UploadError otherwise.
 */
export async function putBlob({ url, file, md5Base64, signal, onProgress }: PutBlobOptions): Promise<PutBlobResult> {
  const headers: Record<string, string> = { "Content-Type": "application/octet-stream", "x-ms-blob-type": "BlockBlob" };
  if (md5Base64) headers["x-ms-blob-content-md5"] = md5Base64;
  const header = await xhrPut({ url: url.href, headers, body: file, signal, onProgress });
  return { storedMd5Base64: header("content-md5") };
}
