import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UNLIMITED_BUDGETS } from "../../../scripts/lib/unlimited-budgets";
import { FUZZ_API_URL, FUZZ_AUTH_URL } from "./ports";

/** Encrypts the session cookies the suites build; the app under test decrypts with the same value. */
export const FUZZ_AUTH_SECRET = "fuzz-only-secret-0123456789abcdef0123456789";

/**
 * Points the app's configuration at the fuzz sandbox. Call before the first import of app code:
 * lib/env.ts reads process.env once and caches it. Returns what removes the run's folders (after the database is
 * closed): each run's database alone is ~40 MB, and /tmp is not ours to fill.
 */
export function configureAppEnv(): { removeFolders: () => void } {
  // The embedded session store, in a directory of this run's own.
  const sessions = mkdtempSync(join(tmpdir(), "esign-fuzz-sessions-"));
  // The create route records each document: an embedded database of this run's own, not the checkout's .data/db.
  const database = mkdtempSync(join(tmpdir(), "esign-fuzz-db-"));
  Object.assign(process.env, {
    SESSION_STORE_DIR: sessions,
    DATABASE_DIR: join(database, "db"),
    AUTH_SECRET: FUZZ_AUTH_SECRET,
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: FUZZ_AUTH_URL,
    ESIGN_API_URL: FUZZ_API_URL,
    ...UNLIMITED_BUDGETS,
  });
  // Without AUTH_URL the cookie name follows the request (x-forwarded-proto), which the suites fuzz too.
  delete process.env.AUTH_URL;
  return {
    removeFolders: () => {
      for (const dir of [sessions, database]) rmSync(dir, { recursive: true, force: true });
    },
  };
}
