import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startTestSandbox } from "./support/sandbox";

const dirOf = (pid: number, tag: string) => path.join(tmpdir(), `esign-sandbox-blobs-${pid}-${tag}`);
const thisProcessDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`esign-sandbox-blobs-${process.pid}-`));

describe("the sandbox's blob directory", () => {
  it("exists while the sandbox runs and is removed at stop; a dead sandbox's directory is swept at the next start, a running one's kept", async () => {
    // A process that has just exited stands for a sandbox killed before it could clean up.
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    const abandoned = dirOf(deadPid, "test");
    const running = dirOf(process.ppid, "test");
    mkdirSync(abandoned);
    mkdirSync(running);
    try {
      const sandbox = await startTestSandbox();
      try {
        expect(existsSync(abandoned)).toBe(false);
        expect(existsSync(running)).toBe(true);
        expect(thisProcessDirs()).toHaveLength(1);
      } finally {
        await sandbox.stop();
      }
      expect(thisProcessDirs()).toEqual([]);
    } finally {
      rmSync(abandoned, { recursive: true, force: true });
      rmSync(running, { recursive: true, force: true });
    }
  });
});
