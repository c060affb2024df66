import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The embedded session store of the e2e app server on `port`: a folder of its own, since a second server on one
 * folder refuses to start.
 */
export const sessionStoreDir = (port: number) => path.join(tmpdir(), `esign-e2e-sessions-${port}`);

/** Where the e2e app servers keep their embedded session stores (playwright.config.ts, e2e/deploy/). */
export const sessionStoreDirs = (): string[] => [
  ...readdirSync(tmpdir())
    .filter((name) => name.startsWith("esign-e2e-sessions-"))
    .map((name) => path.join(tmpdir(), name)),
  ".next/standalone/.data/sessions",
];

/**
 * Every session file the run's app servers wrote must hold no token the sandbox issued and no secret in clear:
 * the records are sealed. Returns how many files were read; throws naming the first files that leak.
 */
export function scanSessionStores(secrets: string[]): number {
  const leaks: string[] = [];
  let files = 0;
  for (const dir of sessionStoreDirs().filter(existsSync)) {
    // Every file of the store: its sessions and its claims.
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const text = readFileSync(file, "utf8");
      files += 1;
      for (const secret of secrets) if (text.includes(secret)) leaks.push(`${file} contains ${secret.slice(0, 6)}…`);
    }
  }
  if (leaks.length > 0) throw new Error(`tokens or secrets in the session store:\n  ${leaks.slice(0, 10).join("\n  ")}`);
  return files;
}
