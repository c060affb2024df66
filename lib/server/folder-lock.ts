import "server-only";
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readFileSync, statfsSync, statSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { tryLock } from "fs-native-extensions";

export type FolderLockHolder = { pid: number; host: string };
export type FolderLock = {
  /**
   * Throws FolderLockLostError unless the folder's lock file is still the file this process locked: one removed or
   * replaced (an operator, a cleanup job, a restored backup) lets another process lock a new file and write too.
   * Two syscalls (stat and fstat), so cheap enough to call before every write.
   */
  assertHeld(): void;
  release(): void;
};

/** Why a folder was refused: a live process holds it, or it is on a filesystem shared between hosts. */
export type FolderRefusal = { kind: "held"; holder: FolderLockHolder | undefined } | { kind: "network-filesystem"; filesystem: string };

type LockOptions = {
  /** The lock file's name inside the folder. */
  fileName: string;
  /** The error to throw when the folder is refused (held by another live process, or on a network filesystem). */
  refuse: (dir: string, refusal: FolderRefusal) => Error;
  /** A second lock of the same folder in this process: refused like any other, or the one already held. */
  sameProcess: "refuse" | "reuse";
};

/** The lock file this process locked is gone or another file: it must stop writing to the folder. */
export class FolderLockLostError extends Error {
  constructor(
    readonly lockPath: string,
    what: "removed" | "replaced" | "released",
  ) {
    super(
      `The lock file ${lockPath} was ${what} while this process held it, so another process may be writing to the same ` +
        "folder now: this process stops writing to it. Never remove a lock file of a running server.",
    );
    this.name = "FolderLockLostError";
  }
}

/**
 * Filesystems (statfs f_type, linux/magic.h) that other hosts may mount too. A lock taken here may not reach a
 * process on another host (an NFS client without a lock manager, a share mounted with `nolock` or `nobrl`, leases
 * that lapse during a network partition), so a folder on one is refused rather than half-protected.
 */
const NETWORK_FILESYSTEMS = new Map<number, string>([
  [0x6969, "nfs"],
  [0x517b, "smb"],
  [0xff534d42, "cifs"],
  [0xfe534d42, "smb2"],
  [0x00c36400, "ceph"],
  [0x5346414f, "afs"],
  [0x6b414653, "afs"],
  [0x73757245, "coda"],
  [0x564c, "ncp"],
  [0x01161970, "gfs2"],
  [0x7461636f, "ocfs2"],
  [0x0bd00bd0, "lustre"],
  [0x47504653, "gpfs"],
]);

/** The network filesystem `dir` is on, if it is one of NETWORK_FILESYSTEMS (Linux only: other systems number them differently). */
export function networkFilesystemOf(dir: string): string | undefined {
  if (process.platform !== "linux") return undefined;
  return NETWORK_FILESYSTEMS.get(statfsSync(dir).type);
}

// Locks held by this process, by lock file path (module copies share it: Next evaluates server modules more than once).
const HELD_KEY = Symbol.for("esign.folderLocks");
function heldLocks(): Map<string, FolderLock> {
  const g = globalThis as typeof globalThis & { [HELD_KEY]?: Map<string, FolderLock> };
  return (g[HELD_KEY] ??= new Map());
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Who holds the lock, as the holder wrote it into the file: for the refusal's message only, never to decide. A new
 * holder writes it just after locking, so a refusal in between reads the previous holder's: one that is gone from
 * this host is not named.
 */
function readHolder(lockPath: string): FolderLockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<FolderLockHolder>;
    if (typeof parsed.pid !== "number" || typeof parsed.host !== "string") return undefined;
    return parsed.host === hostname() && !isAlive(parsed.pid) ? undefined : { pid: parsed.pid, host: parsed.host };
  } catch {
    return undefined;
  }
}

const sameFile = (a: { dev: number; ino: number }, b: { dev: number; ino: number }) => a.dev === b.dev && a.ino === b.ino;

/**
 * Opens (creating it if need be) and locks the lock file without waiting; undefined when another process holds it.
 * The lock is an OFD `fcntl` lock (fs-native-extensions): the kernel holds it for as long as this open file
 * description lives, whatever happens to the process's pid, its namespace or its scheduling (a SIGSTOPped holder
 * keeps it), and drops it when the process ends, crashed or not. Of any number of processes trying at once, the
 * kernel lets exactly one have it.
 */
function lockFile(lockPath: string): number | undefined {
  // Never unlinked (a removal would let a process that opened the old file and one that creates a new one both
  // lock "the" lock file), but an operator may: try again if the path moved on between open and lock.
  for (let attempt = 0; attempt < 3; attempt++) {
    const fd = openSync(lockPath, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    let locked = false;
    try {
      locked = tryLock(fd);
      if (!locked) return undefined;
      const current = statSync(lockPath, { throwIfNoEntry: false });
      if (current && sameFile(current, fstatSync(fd))) return fd;
    } finally {
      if (!locked) closeSync(fd);
    }
    closeSync(fd);
  }
  return undefined;
}

/**
 * Makes this process the only one on a folder (which must exist) that one process alone may use — the embedded
 * database's, the embedded session store's — or throws `refuse(…)` naming the fix: when another live process holds
 * it (on this host, in any PID namespace, paused or not), or when the folder is on a network filesystem, where the
 * lock may not reach another host. The lock dies with the process; the file stays (it holds only the last holder's
 * pid and host, for messages) and is reused by the next holder.
 */
export function lockFolder(dir: string, options: LockOptions): FolderLock {
  const resolved = path.resolve(dir);
  const lockPath = path.join(resolved, options.fileName);
  const held = heldLocks().get(lockPath);
  if (held) {
    if (options.sameProcess === "reuse") return held;
    throw options.refuse(resolved, { kind: "held", holder: { pid: process.pid, host: hostname() } });
  }
  const filesystem = networkFilesystemOf(resolved);
  if (filesystem) throw options.refuse(resolved, { kind: "network-filesystem", filesystem });
  const fd = lockFile(lockPath);
  if (fd === undefined) throw options.refuse(resolved, { kind: "held", holder: readHolder(lockPath) });
  ftruncateSync(fd, 0);
  writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }), 0);
  const lockedFile = fstatSync(fd);

  let released = false;
  const lock: FolderLock = {
    assertHeld() {
      if (released) throw new FolderLockLostError(lockPath, "released");
      const current = statSync(lockPath, { throwIfNoEntry: false });
      if (!current) throw new FolderLockLostError(lockPath, "removed");
      if (!sameFile(current, lockedFile)) throw new FolderLockLostError(lockPath, "replaced");
    },
    release() {
      if (released) return;
      released = true;
      heldLocks().delete(lockPath);
      try {
        ftruncateSync(fd, 0);
      } finally {
        // Closing the only descriptor of the open file description drops the lock.
        closeSync(fd);
      }
    },
  };
  heldLocks().set(lockPath, lock);
  return lock;
}

/** The lock this process holds on `dir` (taken with `fileName`), if any: for a writer that did not take it itself. */
export function heldFolderLock(dir: string, fileName: string): FolderLock | undefined {
  return heldLocks().get(path.join(path.resolve(dir), fileName));
}
