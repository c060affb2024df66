/**
 * Takes the embedded database's folder lock in a process of its own, as a second server would, and holds it until
 * stdin closes: `node --import tsx --conditions=react-server tests/support/acquire-data-dir-lock.ts <dir> [--on-go]`.
 * Prints "ready" once loaded; with `--on-go` it then waits for a "go" line before trying (so that several start
 * together). Prints "locked" once it holds the lock; a refusal prints the error's message and exits 1. While it
 * holds the lock, a "check" line prints "held" or "lost: <message>" (FolderLock.assertHeld).
 */
import { createInterface } from "node:readline";
import { acquireDataDirLock } from "@/lib/db/data-dir-lock";
import type { FolderLock } from "@/lib/server/folder-lock";

const dir = process.argv[2]!;
const onGo = process.argv.includes("--on-go");
let lock: FolderLock | undefined;

function take(): void {
  try {
    lock = acquireDataDirLock(dir);
    process.stdout.write("locked\n");
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line === "go" && !lock) take();
  if (line === "check" && lock) {
    try {
      lock.assertHeld();
      process.stdout.write("held\n");
    } catch (error) {
      process.stdout.write(`lost: ${(error as Error).message}\n`);
    }
  }
});
lines.on("close", () => {
  lock?.release();
  process.exit(0);
});
process.stdout.write("ready\n");
if (!onGo) take();
