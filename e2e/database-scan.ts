import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Own-server specs that run a real PostgreSQL leave a `pg_dump` of it in the run's log folder under this prefix. */
export const POSTGRES_DUMP_PREFIX = "postgres-dump-";

/**
 * The embedded databases (PGlite) the run wrote: those of playwright.config.ts's servers (esign-e2e-db-<port>, the
 * run's own ports), and those of the app servers the own-server specs start (scripts/lib/standalone-app.ts,
 * esign-app-db-<port>) that were written since the run began (the folders are kept between runs).
 */
/** The embedded database folder of the e2e app server on `port` (playwright.config.ts gives each its own). */
export const databaseDir = (port: number) => path.join(tmpdir(), `esign-e2e-db-${port}`);

export function embeddedDatabaseDirs(appPorts: number[], runStartedMs: number): string[] {
  const written = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true }).some((entry) => entry.isFile() && statSync(path.join(entry.parentPath, entry.name)).mtimeMs >= runStartedMs);
  const own = appPorts.map(databaseDir).filter(existsSync);
  const started = readdirSync(tmpdir())
    .filter((name) => name.startsWith("esign-app-db-"))
    .map((name) => path.join(tmpdir(), name))
    .filter(written);
  return [...own, ...started];
}

/** Runs of the characters tokens and secrets are written in (base64 and base64url, a JWT's dots), 16 or more long. */
const TOKEN_RUN = /[A-Za-z0-9_.~+/=-]{16,}/g;

export type DatabaseScan = { dumps: number; folders: number; files: number; mebibytes: number };

/**
 * The databases the run wrote must hold no token the sandbox issued, no secret and nothing secret-shaped (an upload
 * URL's SAS signature): the record keeps facts, never credentials. Reads every `pg_dump` left in `logDir` and every
 * file of every PGlite folder byte for byte (tables, indexes and the write-ahead log, where each row lands first).
 * A value PostgreSQL compresses (TOAST, in rows over ~2 kB) would escape the byte scan; the dumps have no such gap.
 * `databaseDirs` comes from embeddedDatabaseDirs. Throws naming the first files that leak.
 */
export function scanDatabases(options: { logDir: string; databaseDirs: string[]; secrets: string[]; patterns: [string, RegExp][] }): DatabaseScan {
  const { logDir, secrets, patterns } = options;
  const leaks: string[] = [];
  const scan: DatabaseScan = { dumps: 0, folders: 0, files: 0, mebibytes: 0 };
  // A secret made only of token characters lies within one run of them: searching those runs (5 MB of 352 MiB of
  // distinct pages) instead of the whole text took the scan from 7.1 s to 2.2 s. Any other secret is searched in the
  // whole text.
  const inRuns = secrets.filter((secret) => new RegExp(`^${TOKEN_RUN.source}$`).test(secret));
  const elsewhere = secrets.filter((secret) => !inRuns.includes(secret));
  const check = (file: string, text: string) => {
    const runs = (text.match(TOKEN_RUN) ?? []).join("\n");
    for (const secret of inRuns) if (runs.includes(secret)) leaks.push(`${file} contains ${secret.slice(0, 6)}…`);
    for (const secret of elsewhere) if (text.includes(secret)) leaks.push(`${file} contains ${secret.slice(0, 6)}…`);
    for (const [what, pattern] of patterns) {
      const found = pattern.exec(text);
      if (found) leaks.push(`${file} contains ${what} (${found[0].slice(0, 12)}…)`);
    }
  };
  for (const name of existsSync(logDir) ? readdirSync(logDir) : []) {
    if (!name.startsWith(POSTGRES_DUMP_PREFIX)) continue;
    scan.dumps += 1;
    scan.files += 1;
    const dump = readFileSync(path.join(logDir, name), "utf8");
    scan.mebibytes += dump.length / (1024 * 1024);
    check(path.join(logDir, name), dump);
  }
  // Most of every folder is the same catalog pages, byte for byte: each content is searched once (21 folders of
  // 803 MiB hold 352 MiB of distinct files; 14.7 s → 7.1 s on the 2-core machine).
  const searched = new Set<string>();
  for (const dir of options.databaseDirs) {
    scan.folders += 1;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const bytes = readFileSync(file);
      const digest = createHash("sha256").update(bytes).digest("hex");
      scan.files += 1;
      scan.mebibytes += bytes.length / (1024 * 1024);
      if (searched.has(digest)) continue;
      searched.add(digest);
      // latin1: one character per byte, so text stored in the pages is found as written.
      check(file, bytes.toString("latin1"));
    }
  }
  if (leaks.length > 0) throw new Error(`tokens or secrets in a database:\n  ${leaks.slice(0, 10).join("\n  ")}`);
  return scan;
}
