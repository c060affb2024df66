import "server-only";

/** Why a backup or a restore stopped; `message` is a sentence for the operator and never holds a credential. */
export type BackupErrorCode =
  | "NOT_A_BACKUP"
  | "TRUNCATED"
  | "CORRUPTED"
  | "WRONG_KEY"
  | "KEY_REQUIRED"
  | "NEWER_SCHEMA"
  | "VERIFY_MISMATCH"
  | "TARGET_UNREACHABLE"
  | "TARGET_REFUSED"
  | "NOT_FOUND"
  | "FOLDER_IN_USE"
  | "FOLDER_NOT_EMPTY"
  | "NOT_EMBEDDED"
  | "NOT_CONFIGURED";

export class BackupError extends Error {
  constructor(
    readonly code: BackupErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "BackupError";
  }
}
