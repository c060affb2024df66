import "server-only";
import { lockFolder, STALE_LOCK_MS, type FolderLock, type FolderLockHolder } from "@/lib/server/folder-lock";

export { STALE_LOCK_MS };

/** The lock file's name inside the data folder (PostgreSQL ignores files it does not know there). */
export const LOCK_FILE_NAME = "partner-app.lock";

/** Another process holds the embedded database's folder: PGlite would let both open it and silently lose rows. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    owner: FolderLockHolder | undefined,
  ) {
    const who = owner ? `process ${owner.pid} on ${owner.host}` : "another process";
    super(
      `The embedded database in ${dir} is already in use by ${who}. The embedded database (PGlite) serves one process only: ` +
        `to run several instances, set DATABASE_URL to a shared PostgreSQL (docs/configuration.md); to run a second one ` +
        `for a test, give it its own DATABASE_DIR. A lock left by a crashed process expires ${STALE_LOCK_MS / 1000} s after it stopped.`,
    );
    this.name = "DataDirLockedError";
  }
}

/**
 * Takes the embedded database's folder for this process (the folder must exist), or throws DataDirLockedError
 * naming the fix. A second open in this process is refused too: two PGlite instances on one folder lose rows.
 */
export function acquireDataDirLock(dir: string): FolderLock {
  return lockFolder(dir, { fileName: LOCK_FILE_NAME, sameProcess: "refuse", refuse: (d, holder) => new DataDirLockedError(d, holder) });
}
