import "server-only";
import { lockFolder, type FolderLock, type FolderRefusal } from "@/lib/server/folder-lock";

/** The lock file's name inside the data folder (PostgreSQL ignores files it does not know there). */
export const LOCK_FILE_NAME = "partner-app.lock";

/**
 * The embedded database's folder is refused: another process holds it (PGlite would let both open it and silently
 * lose rows), or it is on a network filesystem, where a process on another host might not see the lock.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    refusal: FolderRefusal,
  ) {
    super(refusalMessage(dir, refusal));
    this.name = "DataDirLockedError";
  }
}

function refusalMessage(dir: string, refusal: FolderRefusal): string {
  const fix =
    "The embedded database (PGlite) serves one process only: to run several instances, set DATABASE_URL to a shared " +
    "PostgreSQL (docs/configuration.md)";
  if (refusal.kind === "network-filesystem") {
    return (
      `The embedded database in ${dir} is on a network filesystem (${refusal.filesystem}), where its lock may not keep out ` +
      `a process on another host. ${fix}; for one instance, set DATABASE_DIR to a folder on a local disk.`
    );
  }
  const who = refusal.holder ? `process ${refusal.holder.pid} on ${refusal.holder.host}` : "another process";
  return (
    `The embedded database in ${dir} is already in use by ${who}. ${fix}; to run a second one for a test, give it its ` +
    "own DATABASE_DIR. The lock is the operating system's: it is free as soon as that process ends, crashed or not."
  );
}

/**
 * Takes the embedded database's folder for this process (the folder must exist), or throws DataDirLockedError
 * naming the fix. A second open in this process is refused too: two PGlite instances on one folder lose rows.
 */
export function acquireDataDirLock(dir: string): FolderLock {
  return lockFolder(dir, { fileName: LOCK_FILE_NAME, sameProcess: "refuse", refuse: (d, refusal) => new DataDirLockedError(d, refusal) });
}
