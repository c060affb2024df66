import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

// statfs's filesystem type, as the folder lock sees it: a network filesystem cannot be mounted here, so it is faked.
const fakeFilesystemType = vi.hoisted(() => ({ value: undefined as number | undefined }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const statfsSync = ((...args: Parameters<typeof fs.statfsSync>) => {
    const real = fs.statfsSync(...args);
    return fakeFilesystemType.value === undefined ? real : { ...real, type: fakeFilesystemType.value };
  }) as typeof fs.statfsSync;
  return { ...fs, default: { ...fs, statfsSync }, statfsSync };
});

const { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } = await import("@/lib/db/data-dir-lock");
const { FolderLockLostError } = await import("@/lib/server/folder-lock");
const { lockStoreDir, StoreDirLockedError } = await import("@/lib/session/store-dir-lock");

const dirs: string[] = [];
const children = new Set<ChildProcessWithoutNullStreams>();
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "esign-folder-lock-test-"));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  fakeFilesystemType.value = undefined;
});

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A process running tests/support/acquire-data-dir-lock.ts on a folder, its output read line by line. */
type Locker = {
  pid: number;
  lines: string[];
  stderr: () => string;
  exited: Promise<number | null>;
  /** Resolves the first line from index `from` on that `matches`; rejects if the process exits first. */
  line(matches: (line: string) => boolean, from?: number): Promise<string>;
  send(line: string): void;
};

function startLocker(dir: string, options: { onGo?: boolean; ownPidNamespace?: boolean } = {}): Locker {
  const node = [process.execPath, "--import", "tsx", "--conditions=react-server", "tests/support/acquire-data-dir-lock.ts", dir, ...(options.onGo ? ["--on-go"] : [])];
  // A PID namespace of its own (and /proc to match), same hostname and filesystem: a container on the host network.
  const [command, ...args] = options.ownPidNamespace ? ["unshare", "--pid", "--fork", "--mount-proc", ...node] : node;
  const child = spawn(command!, args, { stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  const lines: string[] = [];
  let stderr = "";
  let buffered = "";
  const waiters = new Set<() => void>();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiters) wake();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
      for (const wake of waiters) wake();
    }),
  );
  return {
    pid: child.pid!,
    lines,
    stderr: () => stderr,
    exited,
    line(matches, from = 0) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = lines.slice(from).find(matches);
          if (found !== undefined) {
            waiters.delete(look);
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(look);
            reject(new Error(`exited (${child.exitCode ?? child.signalCode}) before the expected line; stdout: ${lines.join(" | ")}; stderr: ${stderr}`));
          }
        };
        waiters.add(look);
        look();
      });
    },
    send(line) {
      child.stdin.write(`${line}\n`);
    },
  };
}

/** Starts a locker and resolves once it holds the lock. */
async function holder(dir: string, options: { ownPidNamespace?: boolean } = {}): Promise<Locker> {
  const locker = startLocker(dir, options);
  await locker.line((l) => l === "locked");
  return locker;
}

/** Asks a holder whether its lock file is still the one it locked. */
async function check(locker: Locker): Promise<string> {
  const from = locker.lines.length;
  locker.send("check");
  return locker.line((l) => l === "held" || l.startsWith("lost:"), from);
}

async function stop(locker: Locker): Promise<void> {
  locker.send("");
  const child = [...children].find((c) => c.pid === locker.pid);
  child?.stdin.end();
  await locker.exited;
}

const unshareWorks = process.platform === "linux" && spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"]).status === 0;

describe("the embedded folder lock (an OFD fcntl lock the kernel holds for the holder's life)", () => {
  it("keeps a paused holder's lock: a second process is refused while the holder is stopped, however old the lock file looks", async () => {
    const dir = tempDir();
    const first = await holder(dir);
    process.kill(first.pid, "SIGSTOP");
    try {
      // Paused long past any heartbeat: the old lock went stale by age here and was taken from a live holder.
      const longAgo = new Date(Date.now() - 3_600_000);
      utimesSync(join(dir, LOCK_FILE_NAME), longAgo, longAgo);
      const second = startLocker(dir);
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toContain(`is already in use by process ${first.pid} on ${hostname()}`);
      expect(second.stderr()).toContain("set DATABASE_URL to a shared PostgreSQL");
    } finally {
      process.kill(first.pid, "SIGCONT");
    }
    expect(await check(first)).toBe("held");
    await stop(first);
    // Released at exit: the next process takes it.
    const next = await holder(dir);
    await stop(next);
  });

  it.skipIf(!unshareWorks)("refuses a process in another PID namespace with the same hostname (unshare --pid)", async () => {
    const dir = tempDir();
    // Both are pid 1 in their own namespace: a pid check saw the holder as itself, and so as gone.
    const first = await holder(dir, { ownPidNamespace: true });
    const second = startLocker(dir, { ownPidNamespace: true });
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`is already in use by process 1 on ${hostname()}`);
    // And from this (the host's) namespace too.
    const third = startLocker(dir);
    expect(await third.exited).toBe(1);
    expect(await check(first)).toBe("held");
    await stop(first);
    const next = await holder(dir, { ownPidNamespace: true });
    await stop(next);
  }, 60_000);

  it("lets exactly one of six starters take a crashed holder's folder, round after round", async () => {
    const dir = tempDir();
    let crashed = await holder(dir);
    for (let round = 0; round < 4; round++) {
      crashed.send("");
      process.kill(crashed.pid, "SIGKILL");
      await crashed.exited;
      const starters = Array.from({ length: 6 }, () => startLocker(dir, { onGo: true }));
      // All loaded and waiting, then all told at once: they race for the lock, not for Node's start-up.
      await Promise.all(starters.map((s) => s.line((l) => l === "ready")));
      for (const starter of starters) starter.send("go");
      const outcomes = await Promise.all(
        starters.map((s) => Promise.race([s.line((l) => l === "locked").then(() => "locked" as const), s.exited.then((code) => (code === 1 ? ("refused" as const) : `exit ${code}`))])),
      );
      expect(outcomes.filter((o) => o === "locked"), `round ${round}: ${outcomes.join(", ")}`).toHaveLength(1);
      expect(outcomes.filter((o) => o === "refused")).toHaveLength(5);
      const winner = starters[outcomes.indexOf("locked")]!;
      // The winner writes its pid into the file just after locking it: a loser reading in between names no process.
      for (const loser of starters.filter((s) => s !== winner)) expect(loser.stderr()).toMatch(new RegExp(`in use by (process ${winner.pid} |another process)`));
      crashed = winner;
    }
    await stop(crashed);
  }, 120_000);

  it("tells a holder whose lock file was removed or replaced that it no longer holds the folder", async () => {
    const dir = tempDir();
    const lockFile = join(dir, LOCK_FILE_NAME);
    const first = await holder(dir);
    expect(await check(first)).toBe("held");
    unlinkSync(lockFile);
    expect(await check(first)).toMatch(/^lost: The lock file .*partner-app\.lock was removed while this process held it/);
    // What it guards against: with the file gone, a second process locks a new one.
    const second = await holder(dir);
    writeFileSync(join(dir, "replacement"), "");
    renameSync(join(dir, "replacement"), lockFile);
    expect(await check(second)).toMatch(/^lost: .* was replaced while this process held it/);
    await Promise.all([stop(first), stop(second)]);

    // In this process: the same check, and a second lock here is refused like any other.
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    lock.assertHeld();
    unlinkSync(lockFile);
    expect(() => lock.assertHeld()).toThrow(FolderLockLostError);
    lock.release();
    acquireDataDirLock(dir).release();
  });

  it("stops using the embedded database once its lock file is gone, and opens it again when the folder is free", async () => {
    const dir = tempDir();
    Object.assign(process.env, { AUTH_SECRET: "folder-lock-test-secret-0123456789abcdef", DATABASE_DIR: dir });
    delete process.env.DATABASE_URL;
    const { closeDatabase, getDatabase } = await import("@/lib/db/client");
    const { DatabaseUnavailableError } = await import("@/lib/db/database-errors");
    try {
      const first = await getDatabase();
      expect(await getDatabase()).toBe(first);
      unlinkSync(join(dir, LOCK_FILE_NAME));
      const refused = getDatabase();
      await expect(refused).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(refused.catch((error: Error) => Promise.reject(error.cause))).rejects.toBeInstanceOf(FolderLockLostError);
      // Closed meanwhile; nobody else holds the folder, so the next call opens it under a new lock file.
      const reopened = await getDatabase();
      expect(reopened).not.toBe(first);
      reopened.assertWritable();
    } finally {
      await closeDatabase();
    }
  }, 120_000);

  it("refuses a folder on a network filesystem, naming it and the way to run several instances", () => {
    fakeFilesystemType.value = 0x6969; // NFS_SUPER_MAGIC
    expect(() => acquireDataDirLock(tempDir())).toThrow(/on a network filesystem \(nfs\).*set DATABASE_URL to a shared PostgreSQL.*set DATABASE_DIR to a folder on a local disk/);
    fakeFilesystemType.value = 0xfe534d42; // SMB2_MAGIC_NUMBER
    expect(() => lockStoreDir(tempDir())).toThrow(StoreDirLockedError);
    expect(() => lockStoreDir(tempDir())).toThrow(/on a network filesystem \(smb2\).*set REDIS_URL.*SESSION_STORE_DIR to a folder on a local disk/);
    fakeFilesystemType.value = undefined;
    acquireDataDirLock(tempDir()).release();
  });
});
