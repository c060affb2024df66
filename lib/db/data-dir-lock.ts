import "server-only";
import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

/** The lock file's name inside the data folder (PostgreSQL ignores files it does not know there). */
export const LOCK_FILE_NAME = "partner-app.lock";
/** The holder touches the lock this often, so a lock left by a crash on another host goes stale by itself. */
const HEARTBEAT_MS = 10_000;
/** A lock not touched for this long belongs to no live process. */
export const STALE_LOCK_MS = 3 * HEARTBEAT_MS;

type LockOwner = { pid: number; host: string };

/** Another process holds the embedded database's folder: PGlite would let both open it and silently lose rows. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    owner: LockOwner | undefined,
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

export type DataDirLock = { release(): void };

// Locks held by this process: a second open of the same folder in one process is refused like any other.
const HELD_KEY = Symbol.for("esign.dataDirLocks");
function heldLocks(): Set<string> {
  const g = globalThis as typeof globalThis & { [HELD_KEY]?: Set<string> };
  g[HELD_KEY] ??= new Set();
  return g[HELD_KEY];
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockOwner>;
    return typeof parsed.pid === "number" && typeof parsed.host === "string" ? { pid: parsed.pid, host: parsed.host } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether an existing lock was left by a process that is gone: not touched for STALE_LOCK_MS, or written on this
 * host by a pid that no longer runs. This process's own pid counts as gone when it does not hold the lock: a
 * container restarted after a crash gets the same pid (often 1) again.
 */
function isStale(lockPath: string, owner: LockOwner | undefined): boolean {
  let modifiedAt: number;
  try {
    modifiedAt = statSync(lockPath).mtimeMs;
  } catch {
    return true;
  }
  if (Date.now() - modifiedAt > STALE_LOCK_MS) return true;
  if (!owner || owner.host !== hostname()) return false;
  return owner.pid === process.pid || !isAlive(owner.pid);
}

function createExclusively(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, "wx");
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Takes the embedded database's folder for this process (the folder must exist), or throws DataDirLockedError
 * naming the fix. The lock is a file that the holder touches every HEARTBEAT_MS and removes on release or exit;
 * one left by a crash is taken over once stale. Two processes taking over the same stale lock at the same instant
 * could both win: that needs a crash and two starts within milliseconds of each other, and is accepted.
 */
export function acquireDataDirLock(dir: string): DataDirLock {
  const resolved = path.resolve(dir);
  const lockPath = path.join(resolved, LOCK_FILE_NAME);
  if (heldLocks().has(lockPath)) throw new DataDirLockedError(resolved, { pid: process.pid, host: hostname() });
  if (!createExclusively(lockPath)) {
    const owner = readOwner(lockPath);
    if (!isStale(lockPath, owner)) throw new DataDirLockedError(resolved, owner);
    unlinkSync(lockPath);
    if (!createExclusively(lockPath)) throw new DataDirLockedError(resolved, readOwner(lockPath));
  }
  heldLocks().add(lockPath);
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(lockPath, now, now);
    } catch {
      // Removed under us: nothing to keep fresh; the database itself keeps working.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    heldLocks().delete(lockPath);
    process.off("exit", release);
    const owner = readOwner(lockPath);
    if (owner?.pid === process.pid && owner.host === hostname()) {
      try {
        unlinkSync(lockPath);
      } catch {
        // Already gone.
      }
    }
  };
  process.on("exit", release);
  return { release };
}
