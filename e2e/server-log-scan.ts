import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { slotPorts, slotUrls, workerCount } from "./ports";
import { embeddedDatabaseDirs, scanDatabases } from "./database-scan";
import { scanSessionStores } from "./session-store-scan";

export const SERVER_LOG_DIR = ".e2e-logs";

/**
 * Secret-shaped text that is a leak wherever it appears unredacted: an upload URL's SAS signature, a bearer
 * token, a form-encoded client secret or token, and any of the run's AUTH_SECRETs (all start "e2e-only-").
 */
const LEAK_PATTERNS: [string, RegExp][] = [
  ["a SAS signature", /[?&]sig=(?!\[redacted\])[^&\s"']{8,}/],
  ["a bearer token", /\bBearer (?!\[redacted\])[A-Za-z0-9._~+/-]{16,}/],
  ["a form-encoded secret", /\b(?:client_secret|refresh_token|access_token)=(?!\[redacted\])[^&\s"']{4,}/],
  ["an AUTH_SECRET", /e2e-only-[a-z-]*secret/],
];

async function readSandbox<T>(api: string, what: string): Promise<T> {
  const response = await fetch(`${api}/_sandbox/${what}`);
  if (!response.ok) throw new Error(`server-log scan: could not read ${what} from ${api} (${response.status})`);
  return (await response.json()) as T;
}

/**
 * Document names are personal data. A name shorter than this could be ordinary text in a log line ("a.pdf"), so
 * only longer ones are looked for; the e2e specs name their files `<what>-<run id>.pdf` and longer.
 */
const MIN_SCANNED_NAME_LENGTH = 8;

/** A name as it can appear in a log: as is, and as JSON escapes it inside a JSON log line. */
function nameForms(name: string): string[] {
  const escaped = JSON.stringify(name).slice(1, -1);
  return escaped === name ? [name] : [name, escaped];
}

type AccessLine = { msg?: string; requestId?: string };

function parseLine(line: string): AccessLine | null {
  if (!line.startsWith("{")) return null;
  try {
    return JSON.parse(line) as AccessLine;
  } catch {
    return null;
  }
}

/**
 * Global teardown: the app servers' output (tee'd to .e2e-logs/) must not contain any token the sandbox
 * issued during the run, the client secret, anything secret-shaped (above), or the name of any document the
 * run created (personal data, listed by the sandbox); nor may the session stores, the embedded databases the run
 * wrote, or the `pg_dump`s own-server specs left here (e2e/database-scan.ts) hold a token. And every request id the
 * service saw must be on one of the app's access lines: the id in the logs is the one that reached it.
 * Runs while the sandboxes are still up.
 */
export default async function scanServerLogs(): Promise<void> {
  // Each worker has its own sandbox: what they issued and saw, together.
  const sandboxApis = Array.from({ length: workerCount }, (_, slot) => slotUrls(slotPorts(slot)).api);
  // Asked first, before the file scans: a connection idle through those (seconds) is closed by the sandbox.
  const tokens: string[] = [];
  const ids: string[] = [];
  const names = new Set<string>();
  for (const api of sandboxApis) {
    tokens.push(...(await readSandbox<{ tokens: string[] }>(api, "issued-tokens")).tokens);
    for (const name of (await readSandbox<{ names: string[] }>(api, "created-document-names")).names) {
      if (name.length >= MIN_SCANNED_NAME_LENGTH) names.add(name);
    }
    const seen = await readSandbox<{ requests: { requestId: string | null }[] }>(api, "request-ids");
    ids.push(...seen.requests.flatMap((r) => (r.requestId ? [r.requestId] : [])));
  }
  const secrets = [...tokens, "partner-app-secret"];
  const files = existsSync(SERVER_LOG_DIR) ? readdirSync(SERVER_LOG_DIR).filter((f) => f.endsWith(".log")) : [];
  if (files.length === 0) throw new Error(`server-log scan: no app server logs in ${SERVER_LOG_DIR}/`);
  const leaks: string[] = [];
  const loggedIds = new Set<string>();
  let accessLines = 0;
  for (const file of files) {
    const text = readFileSync(path.join(SERVER_LOG_DIR, file), "utf8");
    for (const secret of secrets) if (text.includes(secret)) leaks.push(`${file} contains ${secret.slice(0, 6)}…`);
    for (const name of names) if (nameForms(name).some((form) => text.includes(form))) leaks.push(`${file} contains the document name ${JSON.stringify(name)}`);
    for (const [what, pattern] of LEAK_PATTERNS) {
      const found = pattern.exec(text);
      if (found) leaks.push(`${file} contains ${what} (${found[0].slice(0, 12)}…)`);
    }
    for (const line of text.split("\n")) {
      const entry = parseLine(line);
      if (entry?.msg !== "request") continue;
      if (!entry.requestId) leaks.push(`${file}: an access line without a request id`);
      else loggedIds.add(entry.requestId);
      accessLines += 1;
    }
  }
  if (leaks.length > 0) throw new Error(`tokens, secrets or document names in server logs:\n  ${leaks.join("\n  ")}`);
  const sessionFiles = scanSessionStores(secrets);
  // The teardown runs in the runner's process: it started with the run.
  const runStartedMs = Date.now() - process.uptime() * 1000;
  const appPorts = Array.from({ length: workerCount }, (_, slot) => [slotPorts(slot).app, slotPorts(slot).devClientApp]).flat();
  const databases = scanDatabases({ logDir: SERVER_LOG_DIR, databaseDirs: embeddedDatabaseDirs(appPorts, runStartedMs), secrets, patterns: LEAK_PATTERNS });

  const unmatched = ids.filter((id) => !loggedIds.has(id));
  if (unmatched.length > 0) {
    throw new Error(`server-log scan: ${unmatched.length} of ${ids.length} request ids the service saw are on no app access line (e.g. ${unmatched[0]})`);
  }
  console.log(
    `server-log scan: ${files.length} logs, ${accessLines} access lines, ${secrets.length} tokens/secrets, ${LEAK_PATTERNS.length} secret patterns and ${names.size} document names checked, no leak; ` +
      `${sessionFiles} session files hold none of them; ` +
      `${databases.folders} PGlite folders and ${databases.dumps} pg_dumps (${databases.files} files, ${databases.mebibytes.toFixed(0)} MiB) hold none of them either; ` +
      `${ids.length} request ids seen by the service, all on app access lines`,
  );
}
