/**
 * Top contributors to each page's first-load JavaScript, from Next's bundle analyzer (Turbopack).
 * `npm run bench:pages:contributors` runs the analyzer (`next experimental-analyze -o`, about two minutes here)
 * and then this. Sizes are the analyzer's compressed sizes per source module (each compressed on its own, so
 * they add up to more than the chunks' gzip size), grouped by package, Next's folders, or our own folders.
 */
import { spawnSync } from "node:child_process";

const ROUTES = ["/", "/account", "/documents", "/documents/[itemId]", "/auth/error"];
const TOP = Number(process.env.TOP ?? 12);

type Group = { type: "group"; kind: string; outputs: string[] };
type Part = { type: "part"; filename: string; source_path: string; compressed_size: number };
type GraphRecord = Group | Part | { type: "meta" | "module" | "output" | "route" };

// Chunk groups a page loads up front; anything else (e.g. an `import()` target) loads later.
const FIRST_LOAD_GROUPS = new Set(["bootstrap", "render_dependent"]);

/**
 * `[project]/node_modules/@scope/name/...` → `@scope/name`; Next's vendored packages (React DOM, …) and its
 * client runtime by folder; our own files → their first two path segments.
 */
function owner(sourcePath: string): string {
  const path = sourcePath.replace(/^\[project\]\//, "");
  const vendored = /node_modules\/next\/dist\/(compiled\/[^/]+|client\/components|client|shared|[^/]+)/.exec(path);
  if (vendored) return `next/dist/${vendored[1]}`;
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (match) return match[1]!;
  return path.split("/").slice(0, 2).join("/");
}

for (const route of ROUTES) {
  const exported = spawnSync("npx", ["next", "experimental-analyze", "export", "--route", route], { encoding: "utf8", maxBuffer: 1 << 30 });
  const records = exported.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as GraphRecord);
  const chunks = new Set(
    records
      .filter((r): r is Group => r.type === "group" && FIRST_LOAD_GROUPS.has(r.kind))
      .flatMap((g) => g.outputs.filter((o) => o.endsWith(".js"))),
  );
  const bytes = new Map<string, number>();
  for (const part of records.filter((r): r is Part => r.type === "part" && chunks.has(r.filename))) {
    bytes.set(owner(part.source_path), (bytes.get(owner(part.source_path)) ?? 0) + part.compressed_size);
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${route}: ${(total / 1024).toFixed(1)} KiB compressed in ${chunks.size} first-load chunks`);
  for (const [name, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${(size / 1024).toFixed(1).padStart(6)} KiB  ${name}`);
  }
}
