import "server-only";
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";

/** The holder touches its lock this often; a lock not touched for STALE_AFTER_MS is a dead holder's. */
const HEARTBEAT_MS = 10_000;
const STALE_AFTER_MS = 30_000;
const LOCK_FILE = "server.lock";

type Holder = { pid: number; host: string };

/** Another live server process holds the session folder. */
export class StoreDirLockedError extends Error {
  constructor(dir: string, holder: Holder) {
    super(
      `The session folder ${dir} is in use by process ${holder.pid} on ${holder.host}. The embedded session store ` +
        "serves one server process only: run one instance on this folder, or set REDIS_URL (the same for every " +
        "instance) to share sessions between instances.",
    );
    this.name = "StoreDirLockedError";
  }
}

const HELD_KEY = Symbol.for("esign.storeDirLocks");
function heldDirs(): Set<string> {
  const g = globalThis as typeof globalThis & { [HELD_KEY]?: Set<string> };
  return (g[HELD_KEY] ??= new Set());
}

function readHolder(path: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(path, "utf8")) as Partial<Holder>;
    return typeof holder.pid === "number" && typeof holder.host === "string" ? { pid: holder.pid, host: holder.host } : null;
  } catch {
    return null;
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
 * Whether a lock names a holder that cannot be running: one that stopped touching it (a crash, a container gone;
 * pids are not comparable across hosts or containers), or, on this host, a process that no longer exists.
 * This process's own pid counts as stale too: a container restarted with the same pid, or this process again.
 */
function isStale(path: string, holder: Holder | null): boolean {
  if (!holder) return true;
  let touchedAt: number;
  try {
    touchedAt = statSync(path).mtimeMs;
  } catch {
    return true; // released meanwhile
  }
  if (Date.now() - touchedAt > STALE_AFTER_MS) return true;
  return holder.host === hostname() && (holder.pid === process.pid || !isAlive(holder.pid));
}

/**
 * Makes this process the one server on the embedded store's folder: a second one started on the same
 * SESSION_STORE_DIR without REDIS_URL (say two instances of the systemd template in one working directory)
 * throws StoreDirLockedError instead of serving with an index the other process does not see. A lock left by a
 * holder that died is taken over. Kept fresh by a heartbeat and removed at exit. Tools that write sessions into
 * a running server's folder (bench/load) do not take it.
 */
export function lockStoreDir(dir: string): void {
  const base = resolve(dir);
  if (heldDirs().has(base)) return;
  mkdirSync(base, { recursive: true });
  const path = join(base, LOCK_FILE);
  const mine: Holder = { pid: process.pid, host: hostname() };
  for (let attempt = 0; ; attempt++) {
    // Written aside, then linked into place: link fails if a lock exists, so two starting processes cannot both win.
    const candidate = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(candidate, JSON.stringify(mine));
    try {
      linkSync(candidate, path);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(candidate);
    }
    const holder = readHolder(path);
    if (attempt > 0 || !isStale(path, holder)) throw new StoreDirLockedError(base, holder ?? { pid: 0, host: "unknown" });
    rmSync(path, { force: true });
  }
  heldDirs().add(base);
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // Removed under us: the next start of another process takes it; nothing to do here.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  process.once("exit", () => {
    if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
  });
}
