import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const BUILD_ID = ".next/BUILD_ID";
// What the client and server bundles are made of; a newer file than the build means the build is stale.
const SOURCES = ["app", "components", "lib", "messages", "public", "auth.ts", "proxy.ts", "instrumentation.ts", "next.config.mjs", "package-lock.json"];

function newestSourceMtime(): number {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", ...SOURCES], { encoding: "utf8" });
  return listed.stdout
    .split("\n")
    .filter((file) => file && existsSync(file))
    .reduce((newest, file) => Math.max(newest, statSync(file).mtimeMs), 0);
}

/** Runs `next build` when there is no production build or a source file changed after it. */
export function buildIfNeeded(): void {
  if (existsSync(BUILD_ID) && statSync(BUILD_ID).mtimeMs >= newestSourceMtime()) {
    console.log("Production build in .next is up to date.");
    return;
  }
  console.log("Running `npx next build` (no build, or sources changed since) …");
  const build = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
  if (build.status !== 0) throw new Error(`next build failed with exit code ${build.status}`);
}
