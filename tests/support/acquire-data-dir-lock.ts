/**
 * Takes the embedded database's folder lock in a process of its own, as a second server would, and holds it until
 * stdin closes: `node --import tsx --conditions=react-server tests/support/acquire-data-dir-lock.ts <dir>`.
 * Prints "locked" once it holds the lock; a refusal prints the error's message and exits 1.
 */
import { acquireDataDirLock } from "@/lib/db/data-dir-lock";

try {
  const lock = acquireDataDirLock(process.argv[2]!);
  process.stdout.write("locked\n");
  process.stdin.resume();
  process.stdin.on("end", () => {
    lock.release();
    process.exit(0);
  });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
