import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { urls } from "./ports";

export const SERVER_LOG_DIR = ".e2e-logs";

/**
 * Global teardown: the app servers' output (tee'd to .e2e-logs/) must not contain any token the
 * sandbox issued during the run, nor the client secret. Runs while the sandbox is still up.
 */
export default async function scanServerLogs(): Promise<void> {
  const response = await fetch(`${urls.api}/_sandbox/issued-tokens`);
  if (!response.ok) throw new Error(`server-log scan: could not read issued tokens (${response.status})`);
  const { tokens } = (await response.json()) as { tokens: string[] };
  const secrets = [...tokens, "partner-app-secret"];
  const files = existsSync(SERVER_LOG_DIR) ? readdirSync(SERVER_LOG_DIR).filter((f) => f.endsWith(".log")) : [];
  if (files.length === 0) throw new Error(`server-log scan: no app server logs in ${SERVER_LOG_DIR}/`);
  const leaks: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(SERVER_LOG_DIR, file), "utf8");
    for (const secret of secrets) if (text.includes(secret)) leaks.push(`${file} contains ${secret.slice(0, 6)}…`);
  }
  if (leaks.length > 0) throw new Error(`tokens or secrets in server logs:\n  ${leaks.join("\n  ")}`);
  console.log(`server-log scan: ${files.length} logs, ${secrets.length} tokens/secrets checked, no leak`);
}
