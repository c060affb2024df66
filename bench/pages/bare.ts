import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** The bare page (bench/pages/bare/): a Next.js app of its own, built and served from the repository's node_modules. */
export const BARE_DIR = path.resolve(import.meta.dirname, "bare");
const NEXT_BIN = path.resolve(import.meta.dirname, "../../node_modules/.bin/next");
const BUILD_ID = path.join(BARE_DIR, ".next/BUILD_ID");

function newestMtime(dir: string): number {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.name !== ".next")
    .reduce((newest, entry) => {
      const file = path.join(dir, entry.name);
      return Math.max(newest, entry.isDirectory() ? newestMtime(file) : statSync(file).mtimeMs);
    }, 0);
}

/** Builds the bare page when it has no build, or when one of its files (or the installed packages) changed since. */
export function buildBareIfNeeded(): void {
  const lockfile = path.resolve(import.meta.dirname, "../../package-lock.json");
  if (existsSync(BUILD_ID) && statSync(BUILD_ID).mtimeMs >= Math.max(newestMtime(BARE_DIR), statSync(lockfile).mtimeMs)) {
    console.log("Bare page's build in bench/pages/bare/.next is up to date.");
    return;
  }
  console.log("Building the bare page (bench/pages/bare) …");
  // Its own folder as the working directory: Tailwind looks for class names from there, not in the app.
  const build = spawnSync(NEXT_BIN, ["build"], { cwd: BARE_DIR, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`next build of the bare page failed with exit code ${build.status}`);
}

/** Serves the bare page with `next start` in its own process group (see bench/load/app-server.ts for why a group). */
export async function startBare(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const url = `http://localhost:${port}`;
  const child = spawn(NEXT_BIN, ["start", "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: BARE_DIR,
    detached: true,
    // Its errors, if it fails to come up, show in the bench's output.
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const onExit = () => killGroup("SIGKILL");
  process.once("exit", onExit);
  const stop = async () => {
    process.removeListener("exit", onExit);
    killGroup("SIGTERM");
    await Promise.race([exited, sleep(5000)]);
    killGroup("SIGKILL");
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const status = await fetch(url).then((r) => r.status, () => 0);
    if (status === 200) return { url, stop };
    await sleep(250);
  }
  await stop();
  throw new Error(`the bare page's next start did not come up on ${url}`);
}
