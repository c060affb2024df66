import "server-only";
import { mkdirSync } from "node:fs";
import { heldFolderLock, lockFolder, type FolderRefusal } from "@/lib/server/folder-lock";

const LOCK_FILE_NAME = "server.lock";

/** The session folder is refused: another live server process holds it, or it is on a network filesystem. */
export class StoreDirLockedError extends Error {
  constructor(dir: string, refusal: FolderRefusal) {
    const fix =
      "The embedded session store serves one server process only: run one instance on this folder, or set REDIS_URL " +
      "(the same for every instance) to share sessions between instances.";
    super(
      refusal.kind === "network-filesystem"
        ? `The session folder ${dir} is on a network filesystem (${refusal.filesystem}), where its lock may not keep out a ` +
            `process on another host. ${fix} For one instance, set SESSION_STORE_DIR to a folder on a local disk.`
        : `The session folder ${dir} is in use by ${refusal.holder ? `process ${refusal.holder.pid} on ${refusal.holder.host}` : "another process"}. ${fix}`,
    );
    this.name = "StoreDirLockedError";
  }
}

/**
 * Makes this process the one server on the embedded store's folder: a second one started on the same
 * SESSION_STORE_DIR without REDIS_URL (say two instances of the systemd template in one working directory)
 * throws StoreDirLockedError instead of serving with an index the other process does not see. Held until exit.
 * Tools that write sessions into a running server's folder (bench/load) do not take it.
 */
export function lockStoreDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  lockFolder(dir, { fileName: LOCK_FILE_NAME, sameProcess: "reuse", refuse: (d, refusal) => new StoreDirLockedError(d, refusal) });
}

/**
 * Before a write to the session folder: throws FolderLockLostError when this process took the folder's lock and its
 * lock file has since been removed or replaced (another server may be writing there now). A process that never
 * took it (a test, bench/load) is not checked.
 */
export function assertStoreDirStillLocked(dir: string): void {
  heldFolderLock(dir, LOCK_FILE_NAME)?.assertHeld();
}
