import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { deployPorts, deployUrls } from "./origins";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

// An instance of its own with a small creation budget: the suite's shared servers take every budget out of reach
// (playwright.config.ts). Its sandbox is the first worker's; the service's 429 is that sandbox's fault switch, taken
// by the next creation that reaches it. Whether the app's own 429 comes first (the budget's window from the test
// before) does not matter: the row then says so, waits, and the service's 429 follows.
const AUTH_SECRET = "e2e-only-rate-limited-auth-secret-0123456789abcd";
const CREATE_BUDGET = 2;
const WINDOW_S = 6;

test.use({ baseURL: deployUrls.rateLimited });

test.describe("the browser under rate limits", () => {
  let app: StandaloneApp | undefined;
  let dir: string;
  const files: string[] = [];

  test.beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "e2e-rate-limits-"));
    for (let i = 1; i <= 5; i++) {
      const file = path.join(dir, `budget-${Date.now().toString(36)}-${i}.pdf`);
      await writeFile(file, `%PDF-1.4 rate limit test file ${i}\n`);
      files.push(file);
    }
    app = await startStandaloneApp({
      dir: ".next/standalone",
      port: deployPorts.rateLimited,
      name: "rate-limited",
      env: { ...sandboxEnv, AUTH_URL: deployUrls.rateLimited, AUTH_SECRET, RATE_LIMIT_DOCUMENTS_CREATE: `${CREATE_BUDGET}/${WINDOW_S}` },
    });
  });

  test.afterAll(async () => {
    await app?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test("the upload queue waits out the app's 429s and uploads every file", async ({ page }) => {
    test.setTimeout(120_000);
    const refusals: number[] = [];
    page.on("response", (res) => {
      if (res.url().endsWith("/api/documents") && res.request().method() === "POST" && res.status() === 429) refusals.push(res.status());
    });
    await signIn(page, users.alice);
    await page.goto("/documents");
    await page.getByLabel("Choose files").setInputFiles(files.slice(0, 4));
    await page.getByRole("button", { name: "Upload 4 files", exact: true }).click();
    // Four files, two creations per window: at least one wait, said in words on the row.
    await expect(page.getByText(/^Many requests in a short time — continuing in .+; nothing is lost$/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("upload-success")).toHaveCount(4, { timeout: 90_000 });
    await expect(page.getByTestId("upload-error")).toHaveCount(0);
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    // One request per wait: never a storm against the budget.
    expect(refusals.length).toBeLessThanOrEqual(3);
  });

  for (const [locale, text] of [
    ["en", /^The e-signature service asked us to slow down — continuing in 3 sec$/],
    ["ja", /^電子署名サービスから間隔をあけるよう求められました — 3\s?秒後に続行します$/],
  ] as const) {
    test(`the service's 429 is shown as the service's, with its wait (${locale}), and the upload then completes`, async ({ page, context }) => {
      test.setTimeout(90_000);
      await signIn(page, users.alice);
      // The language menu's cookie, set after the sign-in (whose helper reads the English pages).
      await context.addCookies([{ name: "locale", value: locale, url: deployUrls.rateLimited }]);
      const fault = await page.request.post(`${urls.api}/_sandbox/faults`, { data: { target: "document", status: 429, retryAfterSeconds: 3, count: 1 } });
      expect(fault.status()).toBe(201);
      await page.goto("/documents");
      await page.getByLabel(locale === "ja" ? "ファイルを選択" : "Choose files").setInputFiles(files[locale === "ja" ? 4 : 0]!);
      await page.getByRole("button", { name: locale === "ja" ? "アップロード" : "Upload", exact: true }).click();
      await expect(page.getByText(text)).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId("upload-success")).toHaveCount(1, { timeout: 30_000 });
    });
  }
});
