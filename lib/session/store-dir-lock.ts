import "server-only";
import { mkdirSync } from "node:fs";
import { lockFolder, type FolderLockHolder } from "@/lib/server/folder-lock";

/** Another live server process holds the session folder. */
export class StoreDirLockedError extends Error {
  constructor(dir: string, holder: FolderLockHolder | undefined) {
    const who = holder ? `process ${holder.pid} on ${holder.host}` : "another process";
    super(
      `The session folder ${dir} is in use by ${who}. The embedded session store ` +
        "serves one server process only: run one instance on this folder, or set REDIS_URL (the same for every " +
        "instance) to share sessions between instances.",
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
  lockFolder(dir, { fileName: "server.lock", sameProcess: "reuse", refuse: (d, holder) => new StoreDirLockedError(d, holder) });
}
