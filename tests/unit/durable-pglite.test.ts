import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { LOCK_FILE_NAME } from "@/lib/db/data-dir-lock";
import { documentRecordsFor } from "@/lib/documents/document-records";

const dirs: string[] = [];
const tempDir = () => {
  // Under the system's temporary folder, on a real disk here (a tmpfs would make every sync a no-op, not a failure).
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "esign-durable-pglite-test-")));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs tests/support/record-under-trace.ts on `dir` under `strace -ff` (the sync calls and plain writes, which
 * include its stdout markers), sends it `steps` one by one, and returns the main thread's trace once it has exited.
 * One file per thread: in one file for all, a call that another thread's call interrupts is split over two lines.
 * PGlite runs on the main thread, which also writes the markers.
 */
async function traceSteps(dir: string, steps: string[]): Promise<string[]> {
  const traceFile = join(dir, "..", "trace");
  const child = spawn(
    "strace",
    ["-ff", "--seccomp-bpf", "-yy", "-s", "64", "-e", "trace=fsync,fdatasync,write", "-e", "signal=none", "-o", traceFile, process.execPath, "--import", "tsx", "--conditions=react-server", "tests/support/record-under-trace.ts", dir],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const lines = createInterface({ input: child.stdout });
  const seen: string[] = [];
  const waitFor = (line: string) =>
    new Promise<void>((resolve, reject) => {
      if (seen.includes(line)) return resolve();
      const onLine = (got: string) => {
        if (got === line) {
          lines.off("line", onLine);
          resolve();
        }
      };
      lines.on("line", onLine);
      exited.then((code) => reject(new Error(`the traced process exited (${code}) before "${line}": ${stderr}`)));
    });
  lines.on("line", (line) => seen.push(line));
  await waitFor("ready");
  for (const step of steps) {
    child.stdin.write(`${step}\n`);
    await waitFor(`${step} end`);
  }
  child.stdin.write("close\n");
  expect(await exited).toBe(0);
  const threads = readdirSync(join(dir, "..")).filter((name) => name.startsWith("trace."));
  const main = threads.map((name) => readFileSync(join(dir, "..", name), "utf8")).find((text) => text.includes('"ready\\n"'));
  expect(main, "the thread that wrote the markers").toBeDefined();
  return main!.split("\n");
}

/** The trace lines strictly between the traced process's stdout markers "<step> start" and "<step> end". */
function linesOfStep(trace: string[], step: string): string[] {
  const marker = (text: string) => trace.findIndex((line) => new RegExp(`write\\(1<.*?>, "${text}\\\\n"`).test(line));
  const start = marker(`${step} start`);
  const end = marker(`${step} end`);
  expect(start, `"${step} start" in the trace`).toBeGreaterThanOrEqual(0);
  expect(end, `"${step} end" in the trace`).toBeGreaterThan(start);
  return trace.slice(start + 1, end);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Successful calls of `syscall` on a descriptor whose path (strace -yy) is `dir` followed by `pathPattern`. */
const syncsOf = (lines: string[], syscall: "fsync" | "fdatasync", dir: string, pathPattern: string) =>
  lines.filter((line) => new RegExp(`\\b${syscall}\\(\\d+<${escape(dir)}${pathPattern}>\\) = 0$`).test(line));

describe("the embedded database on disk", () => {
  it("answers a recorded event only after fdatasync of its WAL, and a checkpoint fsyncs the data files and the control file", async () => {
    const dir = join(tempDir(), "db");
    const trace = await traceSteps(dir, ["record", "checkpoint"]);

    // A new folder is synced before it is used: from PGlite's initdb (no build here) by syncFolderTree alone; from the
    // build's seed (a dump of a running cluster) by PostgreSQL's crash recovery too, through the fsync hook.
    const opening = trace.slice(0, trace.findIndex((line) => line.includes('"ready\\n"')));
    expect(syncsOf(opening, "fsync", dir, "/PG_VERSION").length).toBeGreaterThanOrEqual(1);

    // The commit: the WAL segment is synced (wal_sync_method fdatasync, PostgreSQL's default on Linux) before
    // recordEvents resolves. Without the sync hooks there is no such call at all.
    expect(syncsOf(linesOfStep(trace, "record"), "fdatasync", dir, "/pg_wal/[0-9A-F]{24}").length).toBeGreaterThanOrEqual(1);

    const checkpoint = linesOfStep(trace, "checkpoint");
    expect(syncsOf(checkpoint, "fsync", dir, "/base/\\d+/\\d+").length).toBeGreaterThanOrEqual(1);
    expect(syncsOf(checkpoint, "fsync", dir, "/global/pg_control").length).toBeGreaterThanOrEqual(1);
    // Two PGlite start-ups under strace on a loaded machine: nothing waits on a clock.
  }, 180_000);
});

/** Every file of the folder but the lock file, with a hash of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name !== LOCK_FILE_NAME) files[relative(dir, path)] = `${statSync(path).size}:${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
    }
  };
  walk(dir);
  return files;
}

/** The cluster state in global/pg_control (PostgreSQL's DBState, after the system identifier and two versions). */
const clusterState = (dir: string) => readFileSync(join(dir, "global", "pg_control")).readInt32LE(16);
const DB_SHUTDOWNED = 1;
const DB_IN_PRODUCTION = 6;

describe("the embedded database whose folder lock was lost", () => {
  it("closes without a shutdown checkpoint, writing nothing more to the folder; the next open replays the WAL", async () => {
    const dir = join(tempDir(), "db");
    const first = await openDatabase({ dir });
    const itemId = crypto.randomUUID();
    await documentRecordsFor(async () => first).recordEvents("user-a", itemId, [{ id: crypto.randomUUID(), type: "created", at: new Date().toISOString(), fileId: crypto.randomUUID(), subdocid: 0, name: "Kept", doctype: "nda" }], {});
    expect(clusterState(dir)).toBe(DB_IN_PRODUCTION);
    const before = snapshot(dir);

    // An operator removed the lock file: another process may have taken the folder since.
    unlinkSync(join(dir, LOCK_FILE_NAME));
    expect(() => first.assertWritable()).toThrow(/was removed while this process held it/);
    await first.close();
    // A graceful close would have checkpointed and marked the cluster shut down, in a folder no longer its own.
    expect(clusterState(dir)).toBe(DB_IN_PRODUCTION);
    expect(snapshot(dir)).toEqual(before);

    // What it committed was synced: whoever opens the folder next recovers it from the WAL.
    const reopened = await openDatabase({ dir });
    try {
      expect((await documentRecordsFor(async () => reopened).getDocument("user-a", itemId))?.document.name).toBe("Kept");
    } finally {
      await reopened.close();
    }
    // Held to the end, this one closes gracefully.
    expect(clusterState(dir)).toBe(DB_SHUTDOWNED);
  }, 120_000);
});
