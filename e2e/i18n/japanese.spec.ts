import type { Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { expectNoAxeViolations } from "../fixtures/axe";
import { fillSandboxSignIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, expectOnDocumentsList, writeRandomFile } from "../documents/support";
import { capture as captureBoth } from "../visual/capture";

/**
 * The app for a Japanese user (the "japanese" project: locale ja-JP, so Accept-Language ja; clock in Asia/Tokyo).
 * The sandbox's own sign-in, consent and sign-out pages are the service's, not ours: they stay out of the word and axe
 * checks, but they speak Japanese too (the app asks for it with ui_locales) and name the app, not its client id.
 */

// Independent tests, run last (their own project): spread over the workers rather than one after another on one.
test.describe.configure({ mode: "parallel" });

/** Words of four or more Latin letters allowed on a Japanese page: names, ids and data as the service gives them. */
const ALLOWED_WORDS = new Set([
  // The brand, the service's product name, and the English option of the language menu.
  "eSign", "Partner", "English",
  // Alice's record and name, as the service sends them.
  "Alice", "Example", "alice", "example", "Trading", "business", "owner",
  // Scopes, the operation name and protocol names.
  "openid", "profile", "email", "service", "offline_access", "getuserinfo", "OAuth", "PKCE",
  // The document type typed in the test, and the export format's name.
  "contract", "JSON",
  // Browsers and systems in the session list (from each session's User-Agent; other specs leave sessions too).
  "Chrome", "Firefox", "Safari", "Edge", "Mobile", "Windows", "Linux", "macOS", "Android", "iPhone", "iPad",
]);

/** The page's words, less what the app marks translate="no": names and types people gave their documents (other specs' records are listed too). */
async function latinWords(page: Page): Promise<string[]> {
  const text = await page.locator("body").evaluate((body: HTMLElement) => {
    let all = body.innerText;
    for (const data of body.querySelectorAll<HTMLElement>('[translate="no"]')) all = all.replace(data.innerText, " ");
    // Request ids (問い合わせ番号) are UUIDs, not words: a group such as "addc" is all letters now and then.
    return all.replace(/\b[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}\b/gi, " ");
  });
  return [...text.matchAll(/\b[A-Za-z_]{4,}\b/g)].map((m) => m[0]).filter((w) => !ALLOWED_WORDS.has(w));
}

async function expectJapanese(page: Page, label: string) {
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  expect(await latinWords(page), `English words on ${label}`).toEqual([]);
}

/** Saved as screenshots/ja-* at desktop and phone width (e2e/visual/capture.ts). */
const capture = (page: Page, name: string) => captureBoth(page, `ja-${name}`);

/** 2026年11月26日 14:07, in Tokyo time, as Intl writes it. */
const tokyo = (date: Date) => new Intl.DateTimeFormat("ja", { dateStyle: "long", timeStyle: "short", timeZone: "Asia/Tokyo" }).format(date);

async function signInInJapanese(page: Page) {
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "eSign でログイン" }).click();
  await fillSandboxSignIn(page, users.alice);
  await page.getByRole("button", { name: "許可" }).click();
  await page.waitForURL("**/account");
}

test("the service's sign-in, consent and sign-out pages speak Japanese and name the app; back in the app it says you are signed out", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "eSign でログイン" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ログイン");
  await expect(page.getByRole("main")).toContainText("eSign Partner を利用するにはログインしてください");
  await expect(page.getByRole("main")).not.toContainText("partner-app");
  await expect(page.getByLabel("メールアドレス")).toBeFocused();
  await captureBoth(page, "ja-sandbox-sign-in");
  await fillSandboxSignIn(page, users.alice);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("アクセスを許可しますか？");
  await expect(page.getByRole("main")).toContainText("Alice Example としてログインしています。eSign Partner が次の許可を求めています。");
  await expect(page.getByRole("main")).toContainText("メールアドレスの参照");
  await page.getByRole("button", { name: "許可" }).click();
  await page.waitForURL("**/account");

  await page.getByRole("banner").getByRole("button", { name: "ログアウト", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("電子署名サービスからもログアウトしますか？");
  await expect(page.getByRole("main")).toContainText("eSign Partner からはログアウトしました。");
  await page.getByRole("button", { name: "はい、ログアウトする" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByRole("status").filter({ hasText: "ログアウトしました。" })).toBeVisible();
  await expectJapanese(page, "landing after signing out");
});

test("a Japanese user: sign-in, account, session list and an outage in Japanese, Tokyo time, no hydration mismatch, axe clean", async ({ page, admin }) => {
  const consoleProblems: string[] = [];
  page.on("console", (m) => {
    // The app's pages only: the sandbox's sign-in pages are the service's.
    if ((m.type() === "error" || m.type() === "warning") && page.url().startsWith(urls.app)) consoleProblems.push(m.text());
  });

  await page.goto("/");
  await expectJapanese(page, "landing");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("電子署名を、あなたのアプリの中に");
  await expectNoAxeViolations(page, "landing");
  await capture(page, "landing");

  await signInInJapanese(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("アカウント");
  const record = page.getByTestId("account-record");
  // Alice's customer account was created 2024-03-14T09:26:53Z: 18:26 in Tokyo.
  await expect(record).toContainText("作成日時");
  await expect(record).toContainText(tokyo(new Date("2024-03-14T09:26:53Z")));
  await expect(record).toContainText("2024年3月14日 18:26");
  // The name as the service gives it.
  await expect(page.getByTestId("signed-in-user")).toHaveText("Alice Example");

  const sessions = page.getByTestId("sessions-panel");
  await expect(sessions).toContainText("ログイン中の端末");
  const thisDevice = sessions.getByTestId("session-row").filter({ hasText: "この端末" });
  await expect(thisDevice).toContainText("現在利用中");
  await expect(thisDevice).toContainText(/ログイン日時: \d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}/);
  await expectJapanese(page, "account");
  await expectNoAxeViolations(page, "account");
  await capture(page, "account");

  // The server's HTML already has the Tokyo time: server and browser wrote the same text.
  const html = await (await page.request.get("/account", { headers: { "accept-language": "ja-JP,ja;q=0.9" } })).text();
  expect(html).toContain("2024年3月14日 18:26");

  // The service failing (5xx: SERVICE_UNAVAILABLE) for the page's own fetch and the browser's three attempts: the
  // account card says so in Japanese, and 再試行 recovers once it is back.
  await admin.fault({ target: "getuserinfo", status: 500, count: 4 });
  await page.reload();
  await expect(page.getByText("アカウント情報を読み込めませんでした")).toBeVisible();
  await expect(page.getByText("現在、電子署名サービスを利用できません。しばらくしてから、もう一度お試しください。")).toBeVisible();
  await expectJapanese(page, "account during an outage");
  await capture(page, "account-error");
  await page.getByRole("button", { name: "再試行" }).click();
  await expect(record).toContainText("alice@example.com");

  // The failures' own 503s are expected; anything else (a hydration mismatch is React error #418) is not.
  const outage503 = /^Failed to load resource: the server responded with a status of 503/;
  expect(consoleProblems.filter((m) => !outage503.test(m)), "console errors or warnings").toEqual([]);
});

test("switching language from the menu keeps the page and the sign-in, and is remembered; it works without JavaScript", async ({ page, newBrowser }) => {
  await signInInJapanese(page);
  const menu = page.getByTestId("language-menu");
  await menu.locator("summary").click();
  // Each option is named in its own language, and says so.
  await expect(menu.getByRole("button", { name: "English" })).toHaveAttribute("lang", "en");
  await expect(menu.getByRole("button", { name: "日本語" })).toHaveAttribute("lang", "ja");
  await menu.getByRole("button", { name: "English" }).click();
  await page.waitForURL("**/account");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
  await expect(page.getByTestId("signed-in-user")).toHaveText("Alice Example");

  // The next visit, in a new tab of the same browser (its Accept-Language still says ja): English, remembered.
  const later = await page.context().newPage();
  await later.goto("/");
  await expect(later.locator("html")).toHaveAttribute("lang", "en");
  await expect(later.getByRole("heading", { level: 1 })).toHaveText(/^Welcome back, Alice Example$/);
  await later.close();

  await menu.locator("summary").click();
  await menu.getByRole("button", { name: "日本語" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("アカウント");

  // Without JavaScript: the menu is a <details> and a form; the page comes back with its query, in English.
  const noScript = await newBrowser({ javaScriptEnabled: false, locale: "ja-JP" });
  const plain = await noScript.newPage();
  await plain.goto("/auth/error?error=AccessDenied");
  await expect(plain.getByTestId("auth-error")).toContainText("アクセスが許可されませんでした");
  await capture(plain, "auth-error");
  await plain.getByTestId("language-menu").locator("summary").click();
  await plain.getByTestId("language-menu").getByRole("button", { name: "English" }).click();
  await expect(plain).toHaveURL(/\/auth\/error\?error=AccessDenied$/);
  await expect(plain.getByTestId("auth-error")).toContainText("Access was not granted");
});

test("uploading in Japanese: a name macOS decomposed is taken in NFC, a refused name and the upload's states in Japanese", async ({ page, admin }, testInfo) => {
  test.setTimeout(90_000);
  await admin.reset();
  // バンク as macOS hands it over (ハ + combining dakuten): the form names the document as the user would type it.
  const decomposed = "契約書ハ\u3099ンク.txt";
  const file = await writeRandomFile(testInfo.outputPath(decomposed), 8 * MiB);
  await signInInJapanese(page);
  await page.goto("/documents");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("文書");
  await page.getByLabel("ファイルを選択").setInputFiles(file.path);
  const name = page.getByLabel("名前", { exact: true });
  await expect(name).toHaveValue("契約書バンク.txt");

  // A name the service would refuse: said in Japanese, before any request.
  await name.fill("ab");
  await page.getByRole("button", { name: "アップロード", exact: true }).click();
  await expect(page.getByText("名前は 3 文字以上で入力してください。")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expectJapanese(page, "documents with a refused name");

  // The upload, slowed down so its progress can be seen (and photographed).
  await name.fill("契約書バンク.txt");
  await page.getByLabel("文書の種類").fill("contract");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * MiB });
  await page.getByRole("button", { name: "アップロード", exact: true }).click();
  await expect(page.getByRole("progressbar", { name: /^アップロードしています/ })).toHaveAttribute("aria-valuenow", /^[1-9][0-9]?$/, { timeout: 20_000 });
  await expect(page.getByTestId("upload-progress-text")).toContainText("残り");
  await expectJapanese(page, "documents during an upload");
  await capture(page, "documents-uploading");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  await expect(page.getByTestId("upload-success")).toContainText("アップロードが完了しました", { timeout: 30_000 });
  // The list is the app's record, which the browser's report reaches a moment later.
  // Newest first: an earlier run's document of the same name (the record outlives the run) comes after it.
  const row = page.getByTestId("document-row").filter({ hasText: "契約書バンク.txt" }).first();
  await expectOnDocumentsList(page, () => expect(row).toContainText("アップロード完了", { timeout: 2_000 }));
  await expect(row).toContainText(/\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}/);
  await expect(row).toContainText("8.0 MiB");
  await expectJapanese(page, "documents list");
  await expectNoAxeViolations(page, "documents list");
});
