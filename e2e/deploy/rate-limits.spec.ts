import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIResponse } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { UNKNOWN_PATH } from "../../lib/routes/app-routes";
import { deployPorts, deployUrls } from "./origins";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

// An instance of its own with a small creation budget: the suite's shared servers take every budget out of reach
// (playwright.config.ts). Its sandbox is the first worker's; the service's 429 is that sandbox's fault switch, taken
// by the next creation that reaches it. Whether the app's own 429 comes first (the budget's window from the test
// before) does not matter: the row then says so, waits, and the service's 429 follows.
const AUTH_SECRET = "e2e-only-rate-limited-auth-secret-0123456789abcd";
const CREATE_BUDGET = 2;
const WINDOW_S = 6;
/** A document page's budget and the operator routes', per ten minutes: small enough to spend in a test. */
const PAGE_BUDGET = 5;
const OPERATOR_EXPORT_BUDGET = 3;
const METRICS_URL = `http://127.0.0.1:${deployPorts.rateLimitedMetrics}/metrics`;

/** Database operations this instance made so far (its metrics), the periodic sweep and probes left out. */
async function databaseReads(): Promise<number> {
  const text = await (await fetch(METRICS_URL)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("esign_database_operations_total{") && !/operation="(retention_sweep|ping)"/.test(line))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

/**
 * A page's HTML with what differs on every answer blanked out: the CSP nonce (from the answer's own policy) and the
 * clock the page's messages were rendered with.
 */
async function comparable(res: APIResponse): Promise<string> {
  const nonce = /'nonce-([^']+)'/.exec(res.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce, "the answer's CSP nonce").toBeTruthy();
  return (await res.text()).replaceAll(nonce!, "NONCE").replace(/\$D\d{4}-\d\d-\d\dT[\d:.]+Z/g, "$D<now>");
}

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
      env: {
        ...sandboxEnv,
        AUTH_URL: deployUrls.rateLimited,
        AUTH_SECRET,
        RATE_LIMIT_DOCUMENTS_CREATE: `${CREATE_BUDGET}/${WINDOW_S}`,
        RATE_LIMIT_DOCUMENT_PAGE: `${PAGE_BUDGET}/600`,
        RATE_LIMIT_OPERATOR_EXPORT: `${OPERATOR_EXPORT_BUDGET}/600`,
        OPERATOR_EMAILS: users.oscar.email,
        METRICS_PORT: String(deployPorts.rateLimitedMetrics),
      },
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

  test("a flood of HEADs on a document's page: the budget's requests render it, then 429s that read nothing", async ({ page }) => {
    await signIn(page, users.bob);
    // A document id nobody has: the page reads the database to find that out, and answers 404.
    const path = `/documents/${randomUUID()}`;
    const head = async () => (await page.request.head(path)).status();
    const before = await databaseReads();
    const allowed: number[] = [];
    for (let i = 0; i < PAGE_BUDGET; i++) allowed.push(await head());
    const afterAllowed = await databaseReads();
    expect(allowed).toEqual(Array(PAGE_BUDGET).fill(404));
    // Next renders the whole page for a HEAD: each of them read the database.
    expect(afterAllowed - before).toBeGreaterThanOrEqual(PAGE_BUDGET);
    const refused: number[] = [];
    for (let i = 0; i < 3; i++) refused.push(await head());
    expect(refused).toEqual([429, 429, 429]);
    expect((await page.request.get(path)).status()).toBe(429);
    // A router prefetch's headers buy nothing either: Next strips them before the proxy runs, and nothing is exempt.
    const prefetchHeaders: Record<string, string>[] = [{ "next-router-prefetch": "1" }, { rsc: "1" }, { rsc: "1", "next-router-prefetch": "1" }];
    for (const headers of prefetchHeaders) {
      expect((await page.request.get(path, { headers })).status(), JSON.stringify(headers)).toBe(429);
    }
    expect(await databaseReads(), "the refused requests read nothing").toBe(afterAllowed);
  });

  test("the operator routes answer anyone else exactly as an unknown /api path, and spend their budget first", async ({ page }) => {
    await signIn(page, users.bob);
    // Next's 404 page names the path it rendered (the router's state, the language menu's return address): for the
    // operator route that is the unknown path proxy.ts sends it to, so it is compared with an unknown path of the
    // same depth, that one name swapped. Everything else is byte for byte the same.
    const rendered = UNKNOWN_PATH.split("/").at(-1)!;
    for (const method of ["get", "head"] as const) {
      const unknown = await page.request[method]("/api/operator/no-such-export");
      const operatorRoute = await page.request[method]("/api/operator/export?format=csv&range=7d");
      expect(operatorRoute.status(), method).toBe(404);
      expect(operatorRoute.status(), method).toBe(unknown.status());
      expect(operatorRoute.headers()["content-type"], method).toBe(unknown.headers()["content-type"]);
      const expected = (await comparable(unknown)).replaceAll("no-such-export", rendered);
      expect(await comparable(operatorRoute), method).toBe(expected);
      if (method === "get") expect(expected).toContain("Page not found");
    }
    // The two above spent two of the budget (3), before the operator check: one more 404, then 429s without a read.
    expect((await page.request.get("/api/operator/access-log/export?format=json")).status()).toBe(404);
    const before = await databaseReads();
    const refused = await page.request.get("/api/operator/access-log/export?format=json");
    expect(refused.status()).toBe(429);
    expect(refused.headers()["ratelimit-policy"]).toBe(`"operator-export";q=${OPERATOR_EXPORT_BUDGET};w=600`);
    expect((await page.request.head("/api/operator/export")).status()).toBe(429);
    expect(await databaseReads(), "the refused requests read nothing").toBe(before);
  });
});
