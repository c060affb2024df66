import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { test, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import pg from "pg";
import { startPostgresServer, type RunningPostgres } from "../../scripts/lib/postgres-server";
import { startAppInstance, startSandboxProcess, type SandboxUrls } from "../../scripts/lib/app-cluster";
import type { RunningProcess } from "../../scripts/lib/child-process";
import { envPort } from "../../scripts/lib/env-port";
import { expectNoAxeViolations } from "../fixtures/axe";
import { fillSandboxSignIn, users, type User } from "../fixtures/users";
import { stageFile, writeRandomFile } from "../documents/support";

/**
 * "Delete my records" and the operator's erasure end to end, on an app of its own over a real PostgreSQL (started
 * here, so the test can read every table afterwards) with its own sandbox: a user with documents, their events, a
 * resume point and a waiting report erases their records in English and Japanese at desktop and phone width; then
 * the database holds the user's key only in the erasure ledger (and the access log), an operator's search by the
 * email finds nothing, the other browser is signed out with its refresh token revoked at the service, and the other
 * browser's waiting report, delivered after it signs in again, brings nothing back. Last, an operator erases a user
 * with a reason, which the access log and its CSV show.
 */
const PORTS = {
  postgres: envPort("ERASURE_E2E_DB_PORT", 4850),
  auth: envPort("ERASURE_E2E_AUTH_PORT", 4851),
  api: envPort("ERASURE_E2E_API_PORT", 4852),
  blob: envPort("ERASURE_E2E_BLOB_PORT", 4853),
  app: envPort("ERASURE_E2E_APP_PORT", 4854),
};
const AUTH_SECRET = "erasure-e2e-only-auth-secret-0123456789abcdef012";
const SERVER_ACTIONS_KEY = Buffer.alloc(32, 5).toString("base64");

test.describe.configure({ mode: "serial" });

let postgres: RunningPostgres;
let sandbox: RunningProcess & { urls: SandboxUrls };
let app: RunningProcess & { url: string };
let db: pg.Client;
let sessionDir: string;
/** The app's log lines (stdout and stderr), checked at the end for what an erasure must not leave there. */
const appLog: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sessionDir = mkdtempSync(path.join(tmpdir(), "esign-erasure-e2e-sessions-"));
  postgres = await startPostgresServer(PORTS.postgres);
  const appUrl = `http://localhost:${PORTS.app}`;
  sandbox = await startSandboxProcess({ auth: PORTS.auth, api: PORTS.api, blob: PORTS.blob }, { appUrls: [appUrl] });
  app = await startAppInstance({
    port: PORTS.app,
    authUrl: appUrl,
    sandbox: sandbox.urls,
    authSecret: AUTH_SECRET,
    serverActionsKey: SERVER_ACTIONS_KEY,
    env: { DATABASE_URL: postgres.url, OPERATOR_EMAILS: users.oscar.email, SESSION_STORE_DIR: sessionDir, SHUTDOWN_READINESS_DELAY_MS: "0" },
    log: (line) => appLog.push(line),
  });
  db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
});

test.afterAll(async () => {
  await db?.end();
  await app?.stop();
  await sandbox?.stop();
  await postgres?.stop();
  rmSync(sessionDir, { recursive: true, force: true });
});

const sandboxGet = async <T,>(route: string): Promise<T> => (await fetch(`${sandbox.urls.api}${route}`)).json() as Promise<T>;
const issuedTokens = async () => (await sandboxGet<{ tokens: string[] }>("/_sandbox/issued-tokens")).tokens;
const refreshTokenStatus = (token: string) => sandboxGet<{ status: string; revokedAtEndpoint: boolean }>(`/_sandbox/refresh-token-status?token=${encodeURIComponent(token)}`);

type Lang = "en" | "ja";
const TEXT = {
  en: { signIn: "Sign in with eSign", allow: "Allow", erase: "Delete my records…", dialog: "Delete your records?", confirm: "Delete my records", cancel: "Cancel", done: "Your records are deleted", signInPrompt: "Sign in to see your account" },
  ja: { signIn: "eSign でログイン", allow: "許可", erase: "記録を削除…", dialog: "記録を削除しますか？", confirm: "記録を削除", cancel: "キャンセル", done: "記録を削除しました", signInPrompt: "アカウントを表示するにはログインしてください" },
} as const;

async function newContext(browser: Browser, lang: Lang, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  return browser.newContext({ baseURL: app.url, viewport, locale: lang === "ja" ? "ja-JP" : "en-GB", timezoneId: lang === "ja" ? "Asia/Tokyo" : "Europe/London" });
}

/** Signs in through the sandbox; resolves the refresh token this sign-in got (the browser never sees it). */
async function signIn(page: Page, user: User, lang: Lang): Promise<string> {
  const before = new Set(await issuedTokens());
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: TEXT[lang].signIn }).click();
  await fillSandboxSignIn(page, user);
  await page.getByRole("button", { name: TEXT[lang].allow }).click();
  await page.waitForURL("**/account");
  const fresh = (await issuedTokens()).filter((t) => !before.has(t));
  const active = [];
  for (const token of fresh) if ((await refreshTokenStatus(token)).status === "active") active.push(token);
  expect(active, "one new refresh token").toHaveLength(1);
  return active[0]!;
}

const userKeyOf = async (page: Page): Promise<string> => ((await (await page.request.get("/api/auth/session")).json()) as { userKey: string }).userKey;

/** Two documents through the app's routes (the service creates them), each with its events. */
async function createDocuments(page: Page, user: User): Promise<string[]> {
  const itemIds: string[] = [];
  for (const name of [`Lease of ${user.name}`, `Offer of ${user.name}`]) {
    const created = await page.request.post("/api/documents", { data: { name, doctype: "contract" } });
    expect(created.status()).toBe(201);
    const { itemId } = (await created.json()) as { itemId: string };
    const at = new Date().toISOString();
    const started = await page.request.post(`/api/documents/${itemId}/events`, { data: { events: [{ id: randomUUID(), type: "upload_started", at, mode: "single", bytes: 2048 }] } });
    expect(started.status()).toBe(200);
    itemIds.push(itemId);
  }
  return itemIds;
}

/** Writes an entry into one of the app's IndexedDB stores in this browser, as the app would (keyPath `id`). */
async function putIndexedDb(page: Page, dbName: string, storeName: string, entry: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    ({ dbName, storeName, entry }) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open(dbName, 1);
        request.onupgradeneeded = () => request.result.createObjectStore(storeName, { keyPath: "id" });
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const tx = request.result.transaction(storeName, "readwrite");
          tx.objectStore(storeName).put(entry);
          tx.oncomplete = () => {
            request.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { dbName, storeName, entry },
  );
}

/** The entries of one store of this browser's IndexedDB that belong to `userKey` (none when the database was never made). */
async function indexedDbEntriesOf(page: Page, dbName: string, storeName: string, userKey: string): Promise<number> {
  return page.evaluate(
    ({ dbName, storeName, userKey }) =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open(dbName, 1);
        request.onupgradeneeded = () => request.result.createObjectStore(storeName, { keyPath: "id" });
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const all = request.result.transaction(storeName, "readonly").objectStore(storeName).getAll();
          all.onsuccess = () => {
            request.result.close();
            resolve((all.result as { userKey: string }[]).filter((e) => e.userKey === userKey).length);
          };
        };
      }),
    { dbName, storeName, userKey },
  );
}

/** An interrupted upload this browser could resume (lib/upload/saved-upload.ts), its upload link already expired. */
const resumePoint = (userKey: string, itemId: string) => ({
  id: randomUUID(),
  userKey,
  fileName: "scan.pdf",
  size: 8 * 1024 * 1024,
  lastModified: Date.now(),
  blockSize: 4 * 1024 * 1024,
  firstBlockMd5: "1B2M2Y8AsgTpgAmY7PhCfg==",
  input: { docid: null, name: "Scan", doctype: "contract" },
  itemId,
  point: null,
});

/** A report waiting in the outbox (lib/documents/report-outbox.ts): the creation of a document the app never recorded. */
const waitingReport = (userKey: string) => {
  const itemId = randomUUID();
  const at = new Date(Date.now() - 60_000);
  return {
    itemId,
    entry: {
      id: randomUUID(),
      userKey,
      itemId,
      report: { id: randomUUID(), at: at.toISOString(), type: "created", fileId: randomUUID(), subdocid: 0, container: "documents", name: "Late report", doctype: "contract", size: 10 },
      queuedAt: at.getTime(),
      seq: 0,
    },
  };
};

/** The tables of the app's database whose rows hold `text` anywhere: every table, every column, read as text. */
async function tablesHolding(text: string): Promise<string[]> {
  const { rows: tables } = await db.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'");
  const holding: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from "${table_name}" t where t::text like $1`, [`%${text}%`]);
    if ((rows[0]?.n ?? 0) > 0) holding.push(table_name);
  }
  return holding.sort();
}

const VARIANTS = [
  { lang: "en", width: "desktop", viewport: { width: 1280, height: 800 }, prefix: "" },
  { lang: "en", width: "mobile", viewport: { width: 390, height: 844 }, prefix: "" },
  { lang: "ja", width: "desktop", viewport: { width: 1280, height: 800 }, prefix: "ja-" },
  { lang: "ja", width: "mobile", viewport: { width: 390, height: 844 }, prefix: "ja-" },
] as const;

for (const variant of VARIANTS) {
  test(`a user erases their records (${variant.lang}, ${variant.width}): nothing of theirs is left but their key in the ledger`, async ({ browser }) => {
    test.setTimeout(120_000);
    const { lang } = variant;
    const user = users.alice;
    const main = await newContext(browser, lang, variant.viewport);
    const other = await newContext(browser, "en");
    const operatorContext = await newContext(browser, "en");
    try {
      const page = await main.newPage();
      await signIn(page, user, lang);
      const otherPage = await other.newPage();
      const otherRefreshToken = await signIn(otherPage, user, "en");
      const userKey = await userKeyOf(page);
      const itemIds = await createDocuments(page, user);
      await putIndexedDb(page, "esign-uploads", "interrupted", resumePoint(userKey, itemIds[1]!));
      await putIndexedDb(page, "esign-document-reports", "outbox", waitingReport(userKey).entry);
      // The other browser holds an undelivered report from before the erasure (its page is not open, so it waits).
      const late = waitingReport(userKey);
      await putIndexedDb(otherPage, "esign-document-reports", "outbox", late.entry);
      expect(await tablesHolding(userKey)).toEqual(expect.arrayContaining(["document_events", "documents", "users"]));

      await page.goto("/account");
      const open = page.getByRole("button", { name: TEXT[lang].erase });
      await open.click();
      const dialog = page.getByRole("dialog", { name: TEXT[lang].dialog });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("button", { name: TEXT[lang].cancel })).toBeFocused();
      await expect(dialog).toContainText(lang === "en" ? "2 document records and their histories" : "文書の記録 2 件とその履歴");
      await expect(dialog).toContainText(lang === "en" ? "1 upload this browser could resume" : "再開できるアップロード 1 件");
      await expect(dialog.getByRole("link", { name: "CSV" })).toHaveAttribute("href", "/api/documents/export?format=csv");
      await page.screenshot({ path: `screenshots/${variant.prefix}erasure-dialog-${variant.width}.png` });
      await expectNoAxeViolations(page, `the erasure dialog (${lang}, ${variant.width})`);
      // Focus stays in the dialog: Tab past its last button comes back inside it.
      for (let i = 0; i < 6; i += 1) await page.keyboard.press("Tab");
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      // Escape backs out: nothing erased.
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      expect((await db.query("select 1 from documents where user_key = $1", [userKey])).rowCount).toBe(2);

      await open.click();
      await dialog.getByRole("button", { name: TEXT[lang].confirm, exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/account/erased");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT[lang].done);
      await expect(page.getByTestId("erased-list")).toContainText(lang === "en" ? "2 document records and their histories." : "文書の記録 2 件とその履歴。");
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await page.screenshot({ path: `screenshots/${variant.prefix}erasure-done-${variant.width}.png`, fullPage: true });
      await expectNoAxeViolations(page, `the erased page (${lang}, ${variant.width})`);

      // The database: the user's key only in the ledger; their email and document names nowhere (but in the text of
      // operators' searches, which the access log keeps as typed: an earlier test searched for this email).
      expect(await tablesHolding(userKey)).toEqual(["erasure_ledger"]);
      expect((await tablesHolding(user.email)).filter((table) => table !== "operator_access_log")).toEqual([]);
      const { rows: logged } = await db.query<{ action: string }>("select action from operator_access_log a where a::text like $1", [`%${user.email}%`]);
      expect(logged.every((line) => line.action === "search")).toBe(true);
      expect(await tablesHolding(`Lease of ${user.name}`)).toEqual([]);
      // This browser: no resume point or waiting report of the user.
      expect(await indexedDbEntriesOf(page, "esign-uploads", "interrupted", userKey)).toBe(0);
      expect(await indexedDbEntriesOf(page, "esign-document-reports", "outbox", userKey)).toBe(0);

      // An operator's search by the email finds nobody.
      const operatorPage = await operatorContext.newPage();
      await signIn(operatorPage, users.oscar, "en");
      await operatorPage.goto(`/operator/search?q=${encodeURIComponent(user.email)}`);
      await expect(operatorPage.getByTestId("operator-search-results")).toBeVisible();
      await expect(operatorPage.getByTestId("operator-user-row")).toHaveCount(0);
      await expect(operatorPage.getByTestId("operator-document-row")).toHaveCount(0);

      // The other browser is signed out, its refresh token revoked at the service.
      await otherPage.goto("/account");
      await expect(otherPage.getByRole("heading", { name: TEXT.en.signInPrompt })).toBeVisible();
      expect(await refreshTokenStatus(otherRefreshToken)).toEqual({ status: "revoked", revokedAtEndpoint: true });

      // Signed in again there (a new use: the sign-in keeps the user record anew), the documents page delivers the
      // waiting report: refused for good (410) and dropped from the outbox; nothing is recorded.
      // The service's own sign-in cookie would skip its form; IndexedDB (the outbox) stays.
      await other.clearCookies();
      await signIn(otherPage, user, "en");
      const delivered = otherPage.waitForResponse((res) => res.url().endsWith(`/api/documents/${late.itemId}/events`));
      await otherPage.goto("/documents");
      expect((await delivered).status()).toBe(410);
      await expect.poll(() => indexedDbEntriesOf(otherPage, "esign-document-reports", "outbox", userKey)).toBe(0);
      expect((await db.query("select 1 from documents where user_key = $1", [userKey])).rowCount).toBe(0);
    } finally {
      await main.close();
      await other.close();
      await operatorContext.close();
    }
  });
}

test("an operator erases a user with a reason: the access log and its CSV show erase_user, the operator and the reason", async ({ browser }) => {
  test.setTimeout(120_000);
  const userContext = await newContext(browser, "en");
  const operatorContext = await newContext(browser, "en");
  try {
    const userPage = await userContext.newPage();
    await signIn(userPage, users.bob, "en");
    const userKey = await userKeyOf(userPage);
    await createDocuments(userPage, users.bob);

    const page = await operatorContext.newPage();
    await signIn(page, users.oscar, "en");
    const operatorKey = await userKeyOf(page);
    // Their own page points to the account page instead.
    await page.goto(`/operator/users/${operatorKey}`);
    await expect(page.getByTestId("operator-erase-self")).toContainText("Erase your own records from your account page.");

    await page.goto(`/operator/users/${userKey}`);
    const card = page.getByTestId("operator-erase-user");
    await card.getByRole("button", { name: "Erase records…" }).click();
    await expect(card.getByText("Type a reason of at least 3 characters.")).toBeVisible();
    await expect(card.getByLabel("Reason")).toBeFocused();
    await card.getByLabel("Reason").fill("Phone call on 28 Nov, ticket 4411");
    // The message goes as soon as the reason is valid.
    await expect(card.getByText("Type a reason of at least 3 characters.")).toBeHidden();
    await card.screenshot({ path: "screenshots/operator-erase-user.png" });
    await card.getByRole("button", { name: "Erase records…" }).click();
    const dialog = page.getByRole("dialog", { name: "Erase this user's records?" });
    await dialog.getByRole("button", { name: "Erase records" }).click();
    await expect(page.getByTestId("operator-erased")).toContainText("Erased: 2 document records");

    expect(await tablesHolding(userKey)).toEqual(["erasure_ledger", "operator_access_log"]);
    expect(await tablesHolding(users.bob.email)).toEqual([]);

    await page.goto("/operator/access");
    const line = page.locator('[data-testid="operator-access-entry"][data-action="erase_user"]');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText("erased a user's records");
    await expect(line).toContainText(/Reason:\s*Phone call on 28 Nov, ticket 4411/);
    await page.screenshot({ path: "screenshots/operator-erase-access-log.png", fullPage: true });
    const csv = await (await page.request.get("/api/operator/access-log/export?format=csv")).text();
    const row = csv.split("\r\n").find((l) => l.includes(",erase_user,"));
    // The subject's email column is empty: the user record is gone, and the line never held it.
    expect(row).toContain(`,${users.oscar.email},${operatorKey},erase_user,${userKey},,,"Phone call on 28 Nov, ticket 4411"`);
    expect(csv).not.toContain(users.bob.email);
    expect(csv).not.toContain(`Lease of ${users.bob.name}`);
  } finally {
    await userContext.close();
    await operatorContext.close();
  }
});

test("an operator erasing while the user's upload is being created: the upload ends with a sentence, and no record is left", async ({ browser }) => {
  test.setTimeout(120_000);
  const userContext = await newContext(browser, "en");
  const operatorContext = await newContext(browser, "en");
  try {
    const operatorPage = await operatorContext.newPage();
    await signIn(operatorPage, users.oscar, "en");
    const page = await userContext.newPage();
    await signIn(page, users.bob, "en");
    const userKey = await userKeyOf(page);
    const file = await writeRandomFile(path.join(tmpdir(), `erasure-e2e-${randomUUID()}.pdf`), 64 * 1024);
    await stageFile(page, file);
    await page.getByLabel("Document type").fill("contract");
    // The service takes 4 s to create the document: the erasure lands while the create request is under way.
    const fault = await fetch(`${sandbox.urls.api}/_sandbox/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ target: "document", delayMs: 4_000, count: 1 }) });
    expect(fault.status).toBeLessThan(300);
    const creation = page.waitForRequest((req) => req.method() === "POST" && new URL(req.url()).pathname === "/api/documents");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await creation;
    const erased = await operatorPage.request.post(`/api/operator/users/${userKey}/erasure`, { data: { reason: "Letter of 28 Nov, ticket 4412" } });
    expect(erased.status()).toBe(200);

    await expect(page.getByTestId("upload-error")).toContainText("Your records at this app were erased while this upload was under way", { timeout: 15_000 });
    await expect(page.getByTestId("upload-error")).not.toContainText("RECORDS_ERASED");
    expect((await db.query("select 1 from documents where user_key = $1", [userKey])).rowCount).toBe(0);
    rmSync(file.path, { force: true });
  } finally {
    await userContext.close();
    await operatorContext.close();
  }
});

test("the app's log says that records were erased, by counts, and names no email or document of the erased users", () => {
  expect(appLog.filter((line) => line.includes("records erased on the user's request: 2 document(s)"))).toHaveLength(VARIANTS.length);
  expect(appLog.filter((line) => line.includes("records erased by an operator: "))).toHaveLength(2);
  for (const user of [users.alice, users.bob]) {
    expect(appLog.filter((line) => line.includes(user.email) || line.includes(`Lease of ${user.name}`))).toEqual([]);
  }
});
