import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { test, expect, type Browser, type BrowserContext } from "@playwright/test";
import pg from "pg";
import { startPostgresServer, type RunningPostgres } from "../../scripts/lib/postgres-server";
import { startAppInstance, startSandboxProcess, type SandboxUrls } from "../../scripts/lib/app-cluster";
import { DEFAULT_HEAP_CAP_MIB } from "../../scripts/lib/heap-cap";
import type { RunningProcess } from "../../scripts/lib/child-process";
import { envPort } from "../../scripts/lib/env-port";
import { signIn, users } from "../fixtures/users";
import { sessionStoreDir } from "../session-store-scan";

/**
 * One user with 10,000 documents (30,000 events) on PostgreSQL presses Export 14 times at once (8 JSON, 6 CSV),
 * against one production instance under the production heap cap. Built whole in memory, that killed the server
 * (heap out of memory); streamed in keyset batches, every file is complete and the server stays up.
 */
const PORTS = {
  postgres: envPort("EXPORT_E2E_DB_PORT", 4840),
  auth: envPort("EXPORT_E2E_AUTH_PORT", 4841),
  api: envPort("EXPORT_E2E_API_PORT", 4842),
  blob: envPort("EXPORT_E2E_BLOB_PORT", 4843),
  app: envPort("EXPORT_E2E_APP_PORT", 4844),
};
const SEEDED = 10_000;
const EVENTS_PER_DOCUMENT = 3;

test.describe.configure({ mode: "serial" });

let postgres: RunningPostgres;
let sandbox: RunningProcess & { urls: SandboxUrls };
let app: RunningProcess & { url: string };
let context: BrowserContext;
let cookie: string;

function procStatusMiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000);
  postgres = await startPostgresServer(PORTS.postgres);
  const appUrl = `http://localhost:${PORTS.app}`;
  sandbox = await startSandboxProcess({ auth: PORTS.auth, api: PORTS.api, blob: PORTS.blob }, { appUrls: [appUrl] });
  app = await startAppInstance({
    port: PORTS.app,
    authUrl: appUrl,
    sandbox: sandbox.urls,
    authSecret: "export-e2e-only-auth-secret-0123456789abcdef0123",
    serverActionsKey: Buffer.alloc(32, 7).toString("base64"),
    heapCapMiB: DEFAULT_HEAP_CAP_MIB,
    env: { DATABASE_URL: postgres.url, SESSION_STORE_DIR: sessionStoreDir(PORTS.app), SHUTDOWN_READINESS_DELAY_MS: "0" },
  });
  context = await browser.newContext({ baseURL: app.url });
  const page = await context.newPage();
  await signIn(page, users.alice);
  cookie = (await context.cookies(app.url)).map((c) => `${c.name}=${c.value}`).join("; ");

  // One document through the app, so that the database holds Alice's user key; then 10,000 more in one statement.
  const itemId = randomUUID();
  const created = await fetch(`${app.url}/api/documents/${itemId}/events`, {
    method: "POST",
    headers: { cookie, origin: app.url, "content-type": "application/json" },
    body: JSON.stringify({ events: [{ id: randomUUID(), type: "created", at: new Date().toISOString(), fileId: randomUUID(), subdocid: 0, name: "First contract", doctype: "contract" }] }),
  });
  expect(created.status).toBe(200);
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  try {
    await db.query(
      `insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at)
       select d.user_key, md5('item' || g)::uuid::text, md5('file' || g)::uuid::text, 0, 'documents',
              '契約書 ' || g || ', "draft".pdf', 'contract', 1000 + g, md5('x' || g), 'uploaded',
              timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01' + g * interval '1 second'
       from (select user_key from documents where item_id = $1) d, generate_series(1, ${SEEDED}) g`,
      [itemId],
    );
    await db.query(
      `insert into document_events (user_key, item_id, event_id, type, at, request_id, device, details)
       select user_key, item_id, md5(t || item_id)::uuid, t, created_at + (i * interval '1 second'), 'req-' || item_id, 'Chrome 131 on Linux',
              case t when 'uploaded' then jsonb_build_object('mode', 'single', 'bytes', size, 'md5', md5, 'durationMs', 812) else '{}'::jsonb end
       from documents, unnest(array['upload_started', 'uploaded']) with ordinality as e(t, i)
       where item_id <> $1`,
      [itemId],
    );
    await db.query(
      `insert into document_events (user_key, item_id, event_id, type, at) select user_key, item_id, md5('created' || item_id)::uuid, 'created', created_at from documents where item_id <> $1`,
      [itemId],
    );
    await db.query("analyze");
  } finally {
    await db.end();
  }
});

test.afterAll(async () => {
  await context?.close();
  await Promise.all([app?.stop(), sandbox?.stop()]);
  await postgres?.stop();
});

test(`14 exports at once (8 JSON, 6 CSV) of 10,000 documents under --max-old-space-size=${DEFAULT_HEAP_CAP_MIB}: every file complete, the server still up`, async () => {
  test.setTimeout(150_000);
  const documents = SEEDED + 1;
  const events = SEEDED * EVENTS_PER_DOCUMENT + 1;
  const rssBefore = procStatusMiB(app.child.pid!, "VmRSS");
  const formats = [...Array<string>(8).fill("json"), ...Array<string>(6).fill("csv")];
  const files = await Promise.all(
    formats.map(async (format) => {
      const res = await fetch(`${app.url}/api/documents/export?format=${format}`, { headers: { cookie } });
      return { format, status: res.status, body: await res.text() };
    }),
  );
  for (const file of files) {
    expect(file.status, `${file.format}: ${file.body.slice(0, 200)}`).toBe(200);
    if (file.format === "json") {
      const parsed = JSON.parse(file.body) as { documents: { itemId: string }[]; events: { itemId: string; type: string }[] };
      expect(parsed.documents).toHaveLength(documents);
      expect(new Set(parsed.documents.map((d) => d.itemId)).size).toBe(documents);
      expect(parsed.events).toHaveLength(events);
    } else {
      // Response.text() drops the byte-order mark; the header, one line per event, and the final line break.
      const lines = file.body.split("\r\n");
      expect(lines[0]).toBe("item_id,file_id,subdocid,name,doctype,status,size,md5,created_at,removed_at,event_type,event_at,device,request_id,details");
      expect(lines.at(-1)).toBe("");
      expect(lines.length - 2).toBe(events);
      expect(new Set(lines.slice(1, -1).map((line) => line.split(",")[0])).size).toBe(documents);
    }
  }
  // Still up, and still the same process.
  expect(app.child.exitCode).toBeNull();
  expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  expect((await fetch(`${app.url}/api/documents?limit=5`, { headers: { cookie } })).status).toBe(200);
  const pid = app.child.pid!;
  console.log(`export e2e: 14 exports complete; app RSS ${rssBefore.toFixed(0)} MiB before, peak ${procStatusMiB(pid, "VmHWM").toFixed(0)} MiB, ${procStatusMiB(pid, "VmRSS").toFixed(0)} MiB after`);
});
