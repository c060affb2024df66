import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";

const NEXT_DIR = ".next";

type ClientReferenceManifest = { entryJSFiles?: Record<string, string[]> };

/** The chunks every App Router page loads first: Turbopack's runtime and React/Next's client. */
function rootMainFiles(): string[] {
  const manifest = JSON.parse(readFileSync(join(NEXT_DIR, "build-manifest.json"), "utf8")) as { rootMainFiles: string[] };
  return manifest.rootMainFiles;
}

/**
 * The chunks a route's HTML references: its layouts', error and not-found boundaries' and page's entry chunks,
 * as listed in the build's client reference manifest. Chunks loaded later by `import()` are not in it.
 */
function routeEntryFiles(route: string): string[] {
  const segment = route === "/" ? "page" : `${route.slice(1)}/page`;
  const source = readFileSync(join(NEXT_DIR, "server/app", `${segment}_client-reference-manifest.js`), "utf8");
  const sandbox = { globalThis: {} as { __RSC_MANIFEST?: Record<string, ClientReferenceManifest> } };
  runInNewContext(source, sandbox);
  const manifest = sandbox.globalThis.__RSC_MANIFEST?.[`/${segment}`];
  if (!manifest?.entryJSFiles) throw new Error(`no client reference manifest for ${route} in ${NEXT_DIR}`);
  return Object.values(manifest.entryJSFiles).flat();
}

const gzipKiB = (file: string) => gzipSync(readFileSync(join(NEXT_DIR, file))).length / 1024;

/** Gzip KiB of the JavaScript a route loads up front, computed from the production build without a browser. */
export function buildJsKiB(route: string): number {
  const files = new Set([...rootMainFiles(), ...routeEntryFiles(route)]);
  return [...files].reduce((sum, file) => sum + gzipKiB(file), 0);
}
