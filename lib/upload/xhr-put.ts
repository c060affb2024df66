import { UploadError } from "@/lib/upload/upload-error";

/**
 * How long a PUT may show no sign of life (no upload progress, no answer) before it is cut and retried.
 * Chromium reports upload progress about every 50 ms while bytes move, and even a 1 Mbit/s uplink moves an
 * 8 MiB block in steady steps, so 30 s of silence means a dead connection, not a slow one. It costs at most
 * 30 s plus one re-send, against an upload that otherwise never ends.
 */
export const STALL_TIMEOUT_MS = 30_000;

export type XhrPutOptions = {
  url: string;
  headers: Record<string, string>;
  /** A File or a slice of one: the browser streams it from disk; a string for small XML bodies. */
  body: Blob | string;
  signal?: AbortSignal;
  onProgress?: (loaded: number) => void;
  /**
   * Aborts the request with UPLOAD_STALLED (transient, so it is retried) when it shows no sign of life —
   * no upload progress and no answer — for this long. Without it a connection that silently stops moving
   * bytes keeps its promise pending forever: XHR has no timeout of its own by default. Defaults to
   * STALL_TIMEOUT_MS, so every PUT is guarded; tests shorten it.
   */
  stallTimeoutMs?: number;
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
 * One PUT to storage by XHR (only XHR reports upload progress). Resolves with a reader of the response
 * headers on 2xx; rejects with an UploadError otherwise, including UPLOAD_CANCELLED when the signal aborts.
 */
export function xhrPut({ url, headers, body, signal, onProgress, stallTimeoutMs = STALL_TIMEOUT_MS }: XhrPutOptions): Promise<(name: string) => string | null> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadError("UPLOAD_CANCELLED"));
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    let stalled = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    // Re-armed on every progress event: a slow upload keeps going, only one that stopped moving is cut.
    const watch = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        stalled = true;
        xhr.abort();
      }, stallTimeoutMs);
    };
    const settle = () => {
      clearTimeout(watchdog);
      signal?.removeEventListener("abort", onAbort);
    };

    xhr.open("PUT", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      watch();
      onProgress?.(event.loaded);
    };
    xhr.onload = () => {
      settle();
      if (xhr.status >= 200 && xhr.status < 300) resolve((name) => xhr.getResponseHeader(name));
      else reject(errorForStatus(xhr.status, xhr.responseText));
    };
    // Status 0: refused connection, DNS, or a CORS refusal — the browser does not say which.
    xhr.onerror = () => {
      settle();
      reject(new UploadError("UPLOAD_UNREACHABLE", 0));
    };
    xhr.onabort = () => {
      settle();
      reject(new UploadError(stalled ? "UPLOAD_STALLED" : "UPLOAD_CANCELLED"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    watch();
    xhr.send(body);
  });
}
