/** Why a browser upload stopped; the UI maps each to a sentence and a next step. */
export type UploadErrorCode =
  | "UPLOAD_HOST_NOT_ALLOWED"
  | "UPLOAD_UNREACHABLE"
  | "UPLOAD_FORBIDDEN"
  | "UPLOAD_CHECKSUM_MISMATCH"
  | "UPLOAD_REJECTED"
  | "UPLOAD_STORAGE_UNAVAILABLE"
  | "UPLOAD_STALLED"
  | "UPLOAD_CANCELLED"
  | "CHECKSUM_FAILED";

const MESSAGES: Record<UploadErrorCode, string> = {
  UPLOAD_HOST_NOT_ALLOWED:
    "The service asked us to send your file to an address that is not an allowed storage host, so nothing was sent.",
  UPLOAD_UNREACHABLE: "The upload address could not be reached. Check your connection and try again.",
  UPLOAD_FORBIDDEN:
    "Storage refused the upload link (403), even after we asked the service for a new one. Please try again later.",
  UPLOAD_CHECKSUM_MISMATCH:
    "Storage received bytes that do not match the file's checksum (400), so it did not keep them. Please upload the file again.",
  UPLOAD_REJECTED: "Storage refused the upload (400). Please try again.",
  UPLOAD_STORAGE_UNAVAILABLE: "Storage is having trouble right now. Please try again shortly.",
  UPLOAD_STALLED: "The upload stopped making progress. Check your connection and try again.",
  UPLOAD_CANCELLED: "Upload cancelled. The file was not stored.",
  CHECKSUM_FAILED: "We could not read the file to compute its checksum. Choose it again and retry.",
};

/** Codes worth another attempt as they are (a blip on the way), as opposed to needing a new link or the user. */
const TRANSIENT: ReadonlySet<UploadErrorCode> = new Set(["UPLOAD_UNREACHABLE", "UPLOAD_STORAGE_UNAVAILABLE", "UPLOAD_STALLED"]);

/** A failed browser upload; `storageCode` is Azure's own error code (e.g. `Md5Mismatch`) when storage sent one. */
export class UploadError extends Error {
  constructor(
    readonly code: UploadErrorCode,
    readonly httpStatus?: number,
    readonly storageCode?: string,
  ) {
    super(MESSAGES[code]);
    this.name = "UploadError";
  }

  /** Worth retrying unchanged after a pause. */
  get transient(): boolean {
    return TRANSIENT.has(this.code);
  }
}
