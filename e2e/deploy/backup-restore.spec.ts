import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext, Browser } from "@playwright/test";
import { embeddedDatabaseDir } from "../../scripts/lib/standalone-app";
import { startAzurite, startS3rver, type RunningStore } from "../../tests/support/object-stores";
import { sessionStoreDir } from "../session-store-scan";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { deployPorts, deployUrls } from "./origins";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

/**
 * The restore drill (docs/backups.md), once per kind of target: records are made, a scheduled backup runs, more
 * records are made, the machine is "lost" (the database and session folders removed), `npm run restore -- latest`
 * puts the backup back, and the app starts on it: the backup's records are there with their trails, the later ones
 * are not, the operator access log is as it was at the backup, users sign in again, and the app serves.
 */
test.use({ baseURL: deployUrls.backupDrill });

const AUTH_SECRET = "e2e-only-backup-drill-auth-secret-0123456789abcd";
const databaseDir = embeddedDatabaseDir(deployPorts.backupDrill);
const sessionsDir = sessionStoreDir(deployPorts.backupDrill);
const key = randomBytes(32).toString("base64");

/** Every 5 seconds (croner's seconds field): the drill waits for the first backup after its records, not a clock time. */
const EVERY_FIVE_SECONDS = "*/5 * * * * *";

/** Records a document with a "created" and a "resumed" event, as the browser reports them; answers its item id. */
async function recordDocument(request: APIRequestContext, name: string): Promise<string> {
  const itemId = randomUUID();
  const at = Date.now();
  const answer = await request.post(`/api/documents/${itemId}/events`, {
    data: {
      events: [
        { id: randomUUID(), type: "created", at: new Date(at).toISOString(), fileId: randomUUID(), subdocid: 0, name, doctype: "contract" },
        { id: randomUUID(), type: "resumed", at: new Date(at + 1000).toISOString(), mode: "blocks", bytes: 1024 },
      ],
    },
  });
  expect(answer.status()).toBe(200);
  return itemId;
}

async function listedItemIds(request: APIRequestContext): Promise<string[]> {
  const answer = await request.get("/api/documents?limit=50");
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { documents: { itemId: string }[] }).documents.map((document) => document.itemId);
}

/** The Unix time of the newest verified backup, from the instance's /metrics (0 before any). */
async function lastBackupAt(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${deployPorts.backupDrillMetrics}/metrics`)).text();
  return Number(/^esign_backup_last_success_timestamp_seconds (\S+)$/m.exec(text)?.[1] ?? 0);
}

function restoreLatest(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      path.resolve("node_modules/.bin/tsx"),
      ["--conditions=react-server", "scripts/restore.ts", "latest"],
      { env: { PATH: process.env.PATH ?? "", NODE_ENV: "development", DATABASE_DIR: databaseDir, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

async function accessActions(browser: Browser): Promise<string[]> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, users.oscar);
  await page.goto("/operator/access");
  const actions = await page.getByTestId("operator-access-entry").evaluateAll((items) => items.map((item) => item.getAttribute("data-action") ?? ""));
  await context.close();
  return actions;
}

type Target = { name: string; start(dir: string): Promise<{ env: Record<string, string>; store?: RunningStore }> };
const targets: Target[] = [
  { name: "a folder", start: async (dir) => ({ env: { BACKUP_TARGET: dir } }) },
  {
    name: "S3 (s3rver)",
    start: async (dir) => {
      const store = await startS3rver(deployPorts.backupS3, dir, "backups");
      return { store, env: { BACKUP_TARGET: "s3://backups/esign", ...store.env } };
    },
  },
  {
    name: "Azure Blob (Azurite)",
    start: async (dir) => {
      const store = await startAzurite(deployPorts.backupAzure, dir, "backups");
      return { store, env: { BACKUP_TARGET: "azure://backups/esign", ...store.env } };
    },
  },
];

test.describe("restore drill", () => {
  for (const target of targets) {
    test(`to ${target.name}: a scheduled backup restored onto an empty machine has its records, not later ones`, async ({ browser }) => {
      test.setTimeout(300_000);
      const storeDir = mkdtempSync(path.join(tmpdir(), "esign-e2e-backup-target-"));
      const { env: targetEnv, store } = await target.start(storeDir);
      let app: StandaloneApp | undefined;
      try {
        rmSync(databaseDir, { recursive: true, force: true });
        rmSync(sessionsDir, { recursive: true, force: true });
        mkdirSync(storeDir, { recursive: true });
        const backupEnv = { ...targetEnv, BACKUP_ENCRYPTION_KEY: key };
        const env = {
          ...sandboxEnv,
          AUTH_URL: deployUrls.backupDrill,
          AUTH_SECRET,
          DATABASE_DIR: databaseDir,
          SESSION_STORE_DIR: sessionsDir,
          OPERATOR_EMAILS: users.oscar.email,
          METRICS_PORT: String(deployPorts.backupDrillMetrics),
          TZ: "UTC",
          ...backupEnv,
        };
        app = await startStandaloneApp({ dir: ".next/standalone", port: deployPorts.backupDrill, name: "backup-drill", env: { ...env, BACKUP_SCHEDULE: EVERY_FIVE_SECONDS } });

        // 1. Records with events, and an operator access-log row.
        const alice = await browser.newContext({ storageState: { cookies: [], origins: [] } });
        const alicePage = await alice.newPage();
        await signIn(alicePage, users.alice);
        const kept = [await recordDocument(alicePage.request, "kept-1.pdf"), await recordDocument(alicePage.request, "kept-2.pdf"), await recordDocument(alicePage.request, "kept-3.pdf")];
        expect(await accessActions(browser)).toContain("view_access_log");
        const recordedAt = Date.now() / 1000;

        // 2. The scheduled backup runs.
        await expect.poll(lastBackupAt, { timeout: 120_000, intervals: [1_000] }).toBeGreaterThan(recordedAt);

        // 3. More records, and more access-log rows, on the same folder restarted without the schedule: no backup can
        // take them, so the latest backup is one from before them.
        await app.stop();
        app = await startStandaloneApp({ dir: ".next/standalone", port: deployPorts.backupDrill, name: "backup-drill", env });
        const later = [await recordDocument(alicePage.request, "later-1.pdf"), await recordDocument(alicePage.request, "later-2.pdf")];
        expect((await accessActions(browser)).filter((a) => a === "view_access_log")).toHaveLength(2);
        const cookies = await alice.storageState();
        await alice.close();

        // 4. Stop, lose the machine's folders, restore the latest backup, start.
        await app.stop();
        app = undefined;
        rmSync(databaseDir, { recursive: true, force: true });
        rmSync(sessionsDir, { recursive: true, force: true });
        const restored = await restoreLatest(backupEnv);
        expect(restored.output).toMatch(/^Restored backup \S+ .* verified\./m);
        expect(restored.code).toBe(0);
        expect(restored.output).not.toContain(key);
        app = await startStandaloneApp({ dir: ".next/standalone", port: deployPorts.backupDrill, name: "backup-drill", env });

        // Sessions are not in backups: the old cookie is signed out, and the user signs in again.
        const stale = await browser.newContext({ storageState: cookies });
        expect((await stale.request.get("/api/documents?limit=50")).status()).toBe(401);
        await stale.close();
        const again = await browser.newContext({ storageState: { cookies: [], origins: [] } });
        const page = await again.newPage();
        await signIn(page, users.alice);
        const listed = await listedItemIds(page.request);
        expect(listed.filter((id) => kept.includes(id)).sort()).toEqual([...kept].sort());
        expect(listed.filter((id) => later.includes(id))).toEqual([]);
        await page.goto(`/documents/${kept[0]}`);
        await expect(page.getByTestId("audit-trail").locator("[data-event]")).toHaveCount(2);
        await expect(page.getByTestId("audit-trail").locator('[data-event="resumed"]')).toBeVisible();
        await again.close();

        // The access log as it was at the backup (its one view, and now this one), and the overview's backup line.
        expect((await accessActions(browser)).filter((a) => a === "view_access_log")).toHaveLength(2);
        const oscar = await browser.newContext({ storageState: { cookies: [], origins: [] } });
        const oscarPage = await oscar.newPage();
        await signIn(oscarPage, users.oscar);
        await oscarPage.goto("/operator");
        await expect(oscarPage.getByTestId("operator-backup-status")).toHaveText(/^Last backup \d{2}:\d{2} today, [\d.]+ MB, verified$/);
        await oscar.close();
      } finally {
        await app?.stop();
        await store?.stop();
        rmSync(storeDir, { recursive: true, force: true });
      }
    });
  }
});
