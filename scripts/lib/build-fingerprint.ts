import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Folders that never feed the build: its output, dependencies (their lockfile stands for them), test artefacts. */
const NOT_SOURCES = new Set([".git", ".next", "node_modules", "test-results", "playwright-report", "blob-report", "screenshots", ".data", ".e2e-logs"]);

/** Every file under `dir` but NOT_SOURCES, for a checkout that is not a git repository (a downloaded archive). */
function walk(root: string, dir = ""): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return NOT_SOURCES.has(entry.name) ? [] : walk(root, relative);
    return entry.isFile() ? [relative] : [];
  });
}

/** Tracked and untracked files git does not ignore; null outside a git checkout (or without git). */
function gitFiles(root: string): string[] | null {
  if (!existsSync(path.join(root, ".git"))) return null;
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return out.toString("utf8").split("\0").filter(Boolean);
  } catch {
    return null;
  }
}

/**
 * A hash of everything `npm run build` reads: every source file's path and bytes (git's view of the checkout, so
 * new files count and ignored ones do not), the `.env*` files Next loads (ignored by git), the installed packages
 * (node_modules/.package-lock.json), the Node version and the NEXT_PUBLIC_* variables it inlines. Any change to
 * any of them gives another hash.
 */
export function buildFingerprint(root: string): string {
  const hash = createHash("sha256");
  const files = new Set([...(gitFiles(root) ?? walk(root)), ...readdirSync(root).filter((name) => name.startsWith(".env"))]);
  files.add(path.join("node_modules", ".package-lock.json"));
  for (const file of [...files].sort()) {
    const full = path.join(root, file);
    // A deleted but still tracked file, or a folder git lists (a submodule): its absence is part of the state.
    const content = existsSync(full) && statSync(full).isFile() ? readFileSync(full) : Buffer.from("\0missing");
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  hash.update(`node ${process.version}\0`);
  for (const [key, value] of Object.entries(process.env).filter(([key]) => key.startsWith("NEXT_PUBLIC_")).sort()) hash.update(`${key}=${value}\0`);
  return hash.digest("hex");
}
