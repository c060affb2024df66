import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildFingerprint } from "@/scripts/lib/build-fingerprint";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A small checkout: sources, a lockfile of installed packages, a build output and a package's file. */
function checkout(git: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fingerprint-"));
  dirs.push(dir);
  const files: Record<string, string> = {
    "app/page.tsx": "export default function Page() {}",
    "next.config.mjs": "export default {};",
    "package-lock.json": "{}",
    "node_modules/.package-lock.json": '{"packages":{}}',
    "node_modules/next/index.js": "next",
    ".next/BUILD_ID": "abc",
    ".gitignore": "node_modules/\n.next/\n.env*.local\n",
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  if (git) {
    execFileSync("git", ["init", "-q"], { cwd: dir });
    execFileSync("git", ["add", "."], { cwd: dir });
  }
  return dir;
}

describe.each([["a git checkout", true], ["a downloaded archive", false]])("the demo's build fingerprint in %s", (_, git) => {
  it("changes with a source file's content, a new source file, an .env file and the installed packages", () => {
    const dir = checkout(git);
    const before = buildFingerprint(dir);
    expect(buildFingerprint(dir)).toBe(before);
    const changes: [string, string][] = [
      ["app/page.tsx", "export default function Page() { return null; }"],
      ["app/new.tsx", "export const x = 1;"],
      [".env.local", "NEXT_PUBLIC_X=1"],
      ["node_modules/.package-lock.json", '{"packages":{"x":{}}}'],
    ];
    let previous = before;
    for (const [file, content] of changes) {
      writeFileSync(path.join(dir, file), content);
      const after = buildFingerprint(dir);
      expect(after, file).not.toBe(previous);
      previous = after;
    }
  });

  it("stays the same when only the build output or a package's own files change", () => {
    const dir = checkout(git);
    const before = buildFingerprint(dir);
    writeFileSync(path.join(dir, ".next/BUILD_ID"), "def");
    writeFileSync(path.join(dir, "node_modules/next/index.js"), "next, patched");
    expect(buildFingerprint(dir)).toBe(before);
  });
});
