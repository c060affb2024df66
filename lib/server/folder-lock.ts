import "server-only";
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

/** The holder touches its lock this often, so a lock left by a crash on another host goes stale by itself. */
const HEARTBEAT_MS = 10_000;
/** A lock not touched for this long belongs to no live process. */
export const STALE_LOCK_MS = 3 * HEARTBEAT_MS;

export type FolderLockHolder = { pid: number; host: string };
export type FolderLock = { release(): void };

type LockOptions = {
  /** The lock file's name inside the folder. */
  fileName: string;
  /** The error to throw when a live process (or this one, with `sameProcess: "refuse"`) holds the folder. */
  refuse: (dir: string, holder: FolderLockHolder | undefined) => Error;
  /** A second lock of the same folder in this process: refused like any other, or the one already held. */
  sameProcess: "refuse" | "reuse";
};

// Locks held by this process, by lock file path (module copies share it: Next evaluates server modules more than once).
const HELD_KEY = Symbol.for("esign.folderLocks");
function heldLocks(): Map<string, FolderLock> {
  const g = globalThis as typeof globalThis & { [HELD_KEY]?: Map<string, FolderLock> };
  return (g[HELD_KEY] ??= new Map());
}

function readHolder(lockPath: string): FolderLockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<FolderLockHolder>;
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
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a lock was left by a holder that cannot be running: one that stopped touching it (a crash, a container
 * gone; pids are not comparable across hosts), or, on this host, a process that no longer exists. This process's
 * own pid counts as gone when it does not hold the lock: a container restarted after a crash gets the same pid
 * (often 1) again.
 */
function isStale(lockPath: string, holder: FolderLockHolder | undefined): boolean {
  if (!holder) return true;
  let touchedAt: number;
  try {
    touchedAt = statSync(lockPath).mtimeMs;
  } catch {
    return true; // released meanwhile
  }
  if (Date.now() - touchedAt > STALE_LOCK_MS) return true;
  return holder.host === hostname() && (holder.pid === process.pid || !isAlive(holder.pid));
}

/** Writes the holder aside, then links it into place: link fails if a lock exists, so two starts cannot both win. */
function createExclusively(lockPath: string): boolean {
  const candidate = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(candidate, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
  try {
    linkSync(candidate, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(candidate);
  }
}

/**
 * Makes this process the only one on a folder (which must exist) that one process alone may use — the embedded
 * database's, the embedded session store's — or throws `refuse(…)` naming the fix. The lock is a file the holder
 * touches every HEARTBEAT_MS and removes on release or exit; one left by a dead holder is taken over once.
 */
export function lockFolder(dir: string, options: LockOptions): FolderLock {
  const resolved = path.resolve(dir);
  const lockPath = path.join(resolved, options.fileName);
  const held = heldLocks().get(lockPath);
  if (held) {
    if (options.sameProcess === "reuse") return held;
    throw options.refuse(resolved, { pid: process.pid, host: hostname() });
  }
  if (!createExclusively(lockPath)) {
    const holder = readHolder(lockPath);
    if (!isStale(lockPath, holder)) throw options.refuse(resolved, holder);
    rmSync(lockPath, { force: true });
    if (!createExclusively(lockPath)) throw options.refuse(resolved, readHolder(lockPath));
  }
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(lockPath, now, now);
    } catch {
      // Removed under us: nothing to keep fresh; the next process to start takes it.
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
    const holder = readHolder(lockPath);
    if (holder?.pid === process.pid && holder.host === hostname()) rmSync(lockPath, { force: true });
  };
  process.on("exit", release);
  const lock = { release };
  heldLocks().set(lockPath, lock);
  return lock;
}
