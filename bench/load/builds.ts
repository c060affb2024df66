import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const serverOf = (checkout: string) => path.join(checkout, ".next/standalone/server.js");

function run(command: string, args: string[], cwd: string): void {
  console.log(`$ (cd ${cwd} && ${command} ${args.join(" ")})`);
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed with exit code ${result.status}`);
}

/** The standalone folder of `checkout`, built first (`npm run build`) when it has none. */
export function standaloneBuild(checkout: string): string {
  if (!existsSync(serverOf(checkout))) run("npm", ["run", "build"], checkout);
  return path.dirname(serverOf(checkout));
}

/**
 * A built checkout of `commit` at `dir`, outside the repository: reused when already built there, else made with
 * `git worktree add`, `npm ci` and `npm run build` (a few minutes on two cores).
 */
export function builtCheckout(dir: string, commit: string): string {
  if (!existsSync(path.join(dir, "package.json"))) run("git", ["worktree", "add", "--detach", dir, commit], process.cwd());
  if (!existsSync(path.join(dir, "node_modules"))) run("npm", ["ci", "--no-audit", "--no-fund"], dir);
  return standaloneBuild(dir);
}

/** The commit a checkout is at, for the printed figures. */
export function checkoutCommit(dir: string): string {
  const result = spawnSync("git", ["-C", dir, "log", "-1", "--format=%h (%cs)"], { encoding: "utf8" });
  const dirty = spawnSync("git", ["-C", dir, "status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).stdout.trim();
  return result.status === 0 ? `${result.stdout.trim()}${dirty ? " with uncommitted changes" : ""}` : "(not a git checkout)";
}
