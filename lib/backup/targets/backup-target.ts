import "server-only";
import { BackupError } from "@/lib/backup/backup-error";

/**
 * Where backups go (BACKUP_TARGET): a folder or an object store, seen as a flat list of named files under one
 * prefix. A backup is `<id>.backup` and its manifest `<id>.json`; one kept aside after failing verification is
 * `failed/<id>.backup` with `failed/<id>.json`. Side files (`writeSideFile`) sit beside them: small JSON files that
 * other features keep with the backups (e.g. what must be applied again after a restore).
 */
export interface BackupTarget {
  /** For logs and messages: the kind and place, never a credential. */
  readonly description: string;
  /** Copies a local file to `name`; answers once the target has it (the folder target: on disk). */
  upload(name: string, file: string): Promise<void>;
  /** Writes small bytes to `name`. */
  writeBytes(name: string, bytes: Buffer): Promise<void>;
  /** Copies `name` to a local file. Throws BackupError NOT_FOUND when there is none. */
  download(name: string, file: string): Promise<void>;
  /** Reads small bytes, or undefined when there is no such file. */
  readBytes(name: string): Promise<Buffer | undefined>;
  /** Names under `prefix` ("" or "failed/"), without the prefix, one level deep. */
  list(prefix: string): Promise<string[]>;
  /** Removes `name`; nothing when it is already gone. */
  remove(name: string): Promise<void>;
}

/** A side file's name: a small JSON file beside the backups. */
const SIDE_FILE_NAME = /^[a-z0-9][a-z0-9-]*\.json$/;

function assertSideFileName(name: string): void {
  if (!SIDE_FILE_NAME.test(name) || /^\d/.test(name)) throw new Error(`"${name}" is not a side file name (lower-case letters, digits and dashes, then .json, not starting with a digit)`);
}

/** Writes a side file (e.g. `erasures.json`) beside the backups. Its name never starts with a digit, as backup ids do. */
export async function writeSideFile(target: BackupTarget, name: string, value: unknown): Promise<void> {
  assertSideFileName(name);
  await target.writeBytes(name, Buffer.from(JSON.stringify(value)));
}

/** Reads a side file written by writeSideFile, or undefined when there is none. */
export async function readSideFile<T>(target: BackupTarget, name: string): Promise<T | undefined> {
  assertSideFileName(name);
  const bytes = await target.readBytes(name);
  return bytes ? (JSON.parse(bytes.toString("utf8")) as T) : undefined;
}

/**
 * The error a target answers with when it cannot be used: only the target's description and the failure's code or
 * status, never the SDK's message (which may hold a signed URL or an account name's key).
 */
export function targetFailure(description: string, error: unknown, doing: string): BackupError {
  const e = error as { code?: unknown; name?: unknown; statusCode?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = e.statusCode ?? e.$metadata?.httpStatusCode;
  const code = typeof e.code === "string" ? e.code : typeof e.name === "string" && e.name !== "Error" ? e.name : undefined;
  const detail = [code, status ? `HTTP ${String(status)}` : undefined].filter(Boolean).join(", ") || "no answer";
  const refused = typeof status === "number" && status >= 400 && status < 500;
  return new BackupError(
    refused ? "TARGET_REFUSED" : "TARGET_UNREACHABLE",
    refused
      ? `The backup target ${description} refused to ${doing} (${detail}): check its credentials and permissions.`
      : `The backup target ${description} could not be reached to ${doing} (${detail}).`,
    { cause: error },
  );
}
