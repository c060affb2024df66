import { UploadError } from "@/lib/upload/upload-error";

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

/** Azure error bodies are `<Error><Code>…</Code><Message>…</Message>`; some errors come with an empty body. */
function storageErrorField(body: string, field: "Code" | "Message"): string | undefined {
  return new RegExp(`<${field}>([^<]+)</${field}>`).exec(body)?.[1];
}

/**
 * Azure answers a wrong MD5 with `Md5Mismatch` (or `InvalidMd5` when malformed); Azurite 3.35 answers
 * `InvalidOperation` "Provided contentMD5 doesn't match." — both mean the bytes did not match the checksum.
 */
function isChecksumRefusal(code: string | undefined, message: string | undefined): boolean {
  return code === "Md5Mismatch" || code === "InvalidMd5" || /md5/i.test(message ?? "");
}

function errorForStatus(status: number, body: string): UploadError {
  const storageCode = storageErrorField(body, "Code");
  if (status === 403) return new UploadError("UPLOAD_FORBIDDEN", status, storageCode);
  if (status === 400 && isChecksumRefusal(storageCode, storageErrorField(body, "Message"))) {
    return new UploadError("UPLOAD_CHECKSUM_MISMATCH", status, storageCode);
  }
  if (status === 408 || status === 429 || status >= 500) return new UploadError("UPLOAD_STORAGE_UNAVAILABLE", status, storageCode);
  return new UploadError("UPLOAD_REJECTED", status, storageCode);
}

/**
 * One Put Blob of the whole file to a SAS URL, with the two headers the spec requires.
 * XHR rather than fetch because only XHR reports upload progress. Resolves on 2xx (201 expected);
 * rejects with an UploadError otherwise, including UPLOAD_CANCELLED when the signal aborts.
 */
export function putBlob({ url, file, md5Base64, signal, onProgress }: PutBlobOptions): Promise<PutBlobResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadError("UPLOAD_CANCELLED"));
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener("abort", onAbort);

    xhr.open("PUT", url.href);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.setRequestHeader("x-ms-blob-type", "BlockBlob");
    if (md5Base64) xhr.setRequestHeader("x-ms-blob-content-md5", md5Base64);
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded);
    xhr.onload = () => {
      settle();
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ storedMd5Base64: xhr.getResponseHeader("content-md5") });
      } else {
        reject(errorForStatus(xhr.status, xhr.responseText));
      }
    };
    // Status 0: refused connection, DNS, or a CORS refusal — the browser does not say which.
    xhr.onerror = () => {
      settle();
      reject(new UploadError("UPLOAD_UNREACHABLE", 0));
    };
    xhr.onabort = () => {
      settle();
      reject(new UploadError("UPLOAD_CANCELLED"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    xhr.send(file);
  });
}
