/**
 * Backups of the embedded database at scale (docs/backups.md): a PGlite folder with 100,000 documents and 10 events
 * each (1,000,000 events; 10,000 documents the signed-in user's), served by one standalone instance (`npm run build`
 * first) with a folder BACKUP_TARGET and a key. It prints:
 *   - p95 of GET /api/documents?limit=50 (sequential requests of one user) without a backup running;
 *   - one backup taken by the running instance (asked over its control socket, as `npm run backup` does): its time
 *     with verification, the time the database was held, the verification alone, the file's size; and p95 of the
 *     same requests while it ran, with the ratio to the p95 without;
 *   - a restore of that backup into an empty folder (verification and the post-restore steps included).
 * Goals on 2 cores: backup with verification ≤ 30 s, restore ≤ 30 s, p95 during a backup ≤ 2× without.
 *
 *   npm run bench:backup                       # 100,000 documents
 *   npm run bench:backup -- --documents 20000
 *
 * Ports: sandbox BENCH_BACKUP_PORT_BASE+0..2, the app +3 (default base 4900).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { startSandbox } from "../../sandbox/index";
import { startProcess, waitForHttp } from "../../scripts/lib/child-process";
import { UNLIMITED_BUDGETS } from "../../scripts/lib/unlimited-budgets";
import { signInTokens, storedSessionCookies } from "../load/sessions";
import { percentile } from "../load/stats";
import { askRunningInstance } from "@/lib/backup/control-socket";
import { restoreBackup } from "@/lib/backup/restore-backup";
import type { BackupResult } from "@/lib/backup/run-backup";
import { FolderTarget } from "@/lib/backup/targets/folder-target";
import { userKeyFor } from "@/lib/auth/user-key";
import { openDatabase } from "@/lib/db/client";

const PORT_BASE = Number(process.env.BENCH_BACKUP_PORT_BASE ?? 4900);
const SANDBOX_PORTS = { authPort: PORT_BASE, apiPort: PORT_BASE + 1, blobPort: PORT_BASE + 2 };
const APP_PORT = PORT_BASE + 3;
const documentsArg = process.argv.indexOf("--documents");
const DOCUMENTS = documentsArg > 0 ? Number(process.argv[documentsArg + 1]) : 100_000;
const EVENTS_PER_DOCUMENT = 10;
const USER_DOCUMENTS = Math.min(10_000, DOCUMENTS);
const BASELINE_REQUESTS = 300;

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

/** The documents, `userKey` owning the first USER_DOCUMENTS, and EVENTS_PER_DOCUMENT events each. */
async function seed(dir: string, userKey: string): Promise<number> {
  const started = performance.now();
  const database = await openDatabase({ dir });
  try {
    await database.db.execute(sql`
      insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at)
      select case when g <= ${sql.raw(String(USER_DOCUMENTS))} then ${userKey} else 'bench-user-' || (g % 1000) end,
             md5('item' || g)::uuid::text, md5('file' || g)::uuid::text, 0, 'documents',
             (array['Contract','Invoice','Lease','Offer','Policy'])[1 + g % 5] || ' ' || g, 'contract',
             1000 + g, md5('x' || g), 'uploaded', timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01' + g * interval '1 second'
      from generate_series(1, ${sql.raw(String(DOCUMENTS))}) g`);
    await database.db.execute(sql`
      insert into document_events (user_key, item_id, event_id, type, at, request_id, device, details)
      select user_key, item_id, md5(i || item_id)::uuid, (array['created','upload_started','resumed','resumed','resumed','resumed','resumed','resumed','resumed','uploaded'])[i],
             created_at + i * interval '1 millisecond', 'req-' || i, 'Chrome 131 on Linux', jsonb_build_object('mode', 'blocks', 'bytes', size)
      from documents, generate_series(1, ${sql.raw(String(EVENTS_PER_DOCUMENT))}) i`);
    await database.db.execute(sql`analyze`);
  } finally {
    await database.close();
  }
  return performance.now() - started;
}

/** Sequential GET /api/documents?limit=50 until `until` resolves (or `count` are done); latencies in ms. */
async function listLatencies(cookie: string, options: { count?: number; until?: Promise<unknown> }): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  void options.until?.finally(() => (done = true));
  while (!done && (options.count === undefined || latencies.length < options.count)) {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${APP_PORT}/api/documents?limit=50`, { headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET /api/documents answered ${res.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

const work = mkdtempSync(path.join(os.tmpdir(), "esign-bench-backup-"));
const dataDir = path.join(work, "db");
const targetDir = path.join(work, "target");
mkdirSync(targetDir);
const key = randomBytes(32);
const sandbox = await startSandbox({ ...SANDBOX_PORTS, accessTokenTtl: 3600 });
try {
  const [tokens] = await signInTokens(sandbox, 1);
  const subject = JSON.parse(Buffer.from(tokens!.id_token.split(".")[1]!, "base64url").toString()).sub as string;
  console.log(`seeding ${DOCUMENTS} documents × ${EVENTS_PER_DOCUMENT} events …`);
  const seedMs = await seed(dataDir, userKeyFor(sandbox.authUrl, subject));
  console.log(`  seeded in ${(seedMs / 1000).toFixed(1)} s`);
  const env: Record<string, string> = {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    ESIGN_API_URL: `http://127.0.0.1:${SANDBOX_PORTS.apiPort}`,
    ESIGN_STORAGE_ORIGINS: `http://127.0.0.1:${SANDBOX_PORTS.blobPort}`,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    AUTH_URL: `http://localhost:${APP_PORT}`,
    SESSION_STORE_DIR: path.join(work, "sessions"),
    DATABASE_DIR: dataDir,
    BACKUP_TARGET: targetDir,
    BACKUP_ENCRYPTION_KEY: key.toString("base64"),
    ...UNLIMITED_BUDGETS,
  };
  const [cookie] = await storedSessionCookies([tokens!], env);
  const app = startProcess("app", process.execPath, [path.resolve(".next/standalone/server.js")], {
    cwd: path.resolve(".next/standalone"),
    env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(APP_PORT), HOSTNAME: "127.0.0.1", LOG_LEVEL: "warn", SHUTDOWN_READINESS_DELAY_MS: "0", ...env },
    log: (line) => (/"level":(50|60)/.test(line) ? console.error(line) : undefined),
  });
  let backup: BackupResult;
  let without: number[];
  let during: number[];
  try {
    await waitForHttp(`http://127.0.0.1:${APP_PORT}/api/health`, 180_000, app.child, (status) => status === 200);
    await listLatencies(cookie!, { count: 20 });
    without = await listLatencies(cookie!, { count: BASELINE_REQUESTS });
    const asked = askRunningInstance<BackupResult>(dataDir, "backup");
    during = await listLatencies(cookie!, { until: asked });
    const answer = await asked;
    if (!answer?.ok) throw new Error(`the backup failed: ${answer ? answer.error.message : "no instance answered"}`);
    backup = answer.result;
  } finally {
    await app.stop();
  }
  const restored = await restoreBackup({ dataDir: path.join(work, "restored"), source: { kind: "latest" }, target: new FolderTarget(targetDir), key, replace: false });
  const p95 = (sorted: number[]) => percentile(sorted, 95);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`
Backups at ${DOCUMENTS.toLocaleString("en")} documents × ${EVENTS_PER_DOCUMENT} events (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})
  backup with verification   ${s(backup.ms)}   (goal ≤ 30 s)
    snapshot                 ${s(backup.snapshotMs)}, database held ${Math.round(backup.exclusiveMs)} ms
    verification             ${s(backup.verifyMs)}
    store in the target      ${s(backup.uploadMs)}
  backup file                ${(backup.sizeBytes / 1024 / 1024).toFixed(1)} MiB, encrypted
  restore                    ${s(restored.ms)}   (goal ≤ 30 s)
  GET /api/documents p95     ${p95(without).toFixed(1)} ms without a backup (${without.length} requests)
                             ${p95(during).toFixed(1)} ms during the backup (${during.length} requests), ${(p95(during) / p95(without)).toFixed(2)}× (goal ≤ 2×)
                             max ${during.at(-1)!.toFixed(0)} ms during, ${without.at(-1)!.toFixed(0)} ms without`);
} finally {
  await sandbox.stop();
  rmSync(work, { recursive: true, force: true });
}
