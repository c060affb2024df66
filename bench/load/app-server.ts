import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

// Last lines of the server's output, shown if it fails to come up.
function keepTail(lines: string[], chunk: Buffer): void {
  lines.push(...chunk.toString().split("\n"));
  lines.splice(0, Math.max(0, lines.length - 40));
}

/**
 * Starts `next start` on loopback in its own process group: npx → next → the server are separate processes,
 * and only killing the group takes the last one down. Resolves once the account route answers.
 */
export async function startApp(port: number, env: Record<string, string>): Promise<RunningApp> {
  const url = `http://127.0.0.1:${port}`;
  // A fresh embedded database per start, removed at stop, unless `env` names one: a run must not measure the
  // documents of the runs before it (a kept folder had grown the stuck list from 243 to 499 elements).
  const ownDatabaseDir = env.DATABASE_URL || env.DATABASE_DIR ? undefined : mkdtempSync(join(tmpdir(), "esign-bench-db-"));
  const child = spawn("npx", ["next", "start", "--port", String(port), "--hostname", "127.0.0.1"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...(ownDatabaseDir ? { DATABASE_DIR: ownDatabaseDir } : {}), ...env },
  });
  const output: string[] = [];
  child.stdout.on("data", (chunk: Buffer) => keepTail(output, chunk));
  child.stderr.on("data", (chunk: Buffer) => keepTail(output, chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const removeDatabase = () => {
    if (ownDatabaseDir) rmSync(ownDatabaseDir, { recursive: true, force: true });
  };
  // A crash or Ctrl-C of this script must not leave the server holding the port, nor its database behind.
  const onExit = () => {
    killGroup("SIGKILL");
    removeDatabase();
  };
  process.once("exit", onExit);

  const stop = async () => {
    process.removeListener("exit", onExit);
    killGroup("SIGTERM");
    await Promise.race([exited, sleep(5000)]);
    // npx may exit before the server it started; whatever is left of the group goes now.
    killGroup("SIGKILL");
    removeDatabase();
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    // Signed out, the account route answers 401: the server is up and the route is loaded.
    const status = await fetch(`${url}/api/account`).then((r) => r.status, () => 0);
    if (status === 401) return { url, stop };
    await sleep(250);
  }
  await stop();
  throw new Error(`next start did not come up on ${url}:\n${output.join("\n")}`);
}
