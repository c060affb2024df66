import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";

/**
 * The local AUTH_SECRET from .env.local, written there first if missing, so that `npm run demo` and
 * `npm run dev` work on a fresh clone and sessions survive restarts. Never used in production. One set in the
 * environment wins, and nothing is written.
 */
export function ensureLocalAuthSecret(log: (message: string) => void): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  const file = ".env.local";
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const existing = /^AUTH_SECRET=(.+)$/m.exec(current)?.[1]?.trim();
  if (existing) return existing;
  const secret = randomBytes(32).toString("base64url");
  appendFileSync(file, `${current && !current.endsWith("\n") ? "\n" : ""}AUTH_SECRET=${secret}\n`);
  log("wrote a new AUTH_SECRET to .env.local");
  return secret;
}
