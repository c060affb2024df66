import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { deployPorts, deployUrls } from "../deploy/origins";
import { sandboxEnv, startStandaloneApp } from "../deploy/standalone-server";
import { stageFile, writeRandomFile } from "../documents/support";
import { capture } from "./capture";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in; a test that signs
// out ends that session and the next one signs in afresh (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });
// Independent tests, the last of the run and long: spread over the workers rather than left to one.
test.describe.configure({ mode: "parallel" });

// Every page and state at desktop and phone width (capture: saved under screenshots/, checked for overflow).

test("landing, sign-in and auth error pages", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("main").getByRole("button", { name: "Sign in with eSign" })).toBeVisible();
  await capture(page, "landing");

  await page.goto("/auth/error?error=AccessDenied");
  await expect(page.getByTestId("auth-error")).toBeVisible();
  await capture(page, "auth-error");

  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await expect(page.getByLabel("Email")).toBeFocused();
  await capture(page, "sandbox-sign-in");
});

test("account page: loading, success, error and customer not found", async ({ page, admin }) => {
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toBeVisible();
  await capture(page, "account-success");

  // The record is rendered on the server; the skeleton shows only when that failed and the browser asks
  // the route handler itself: one 503 for the server's fetch, then the browser's request is held.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/account", async (route) => {
    await held;
    await route.continue();
  });
  await admin.fault({ target: "getuserinfo", status: 503, count: 1 });
  await page.reload();
  await expect(page.getByTestId("account-loading")).toBeVisible();
  await capture(page, "account-loading");
  const loaded = page.waitForResponse("**/api/account");
  release();
  await loaded;
  await page.unroute("**/api/account");

  // One for the server's fetch during the render, three for the browser's request and its two retries.
  await admin.fault({ target: "getuserinfo", status: 503, count: 4 });
  await page.reload();
  await expect(page.getByText("We could not load your account")).toBeVisible();
  await capture(page, "account-error");
  await admin.reset();
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("account-record")).toBeVisible();
});

test("account page for a user without a customer account", async ({ page }) => {
  await signIn(page, users.bob);
  await expect(page.getByTestId("customer-not-found")).toBeVisible();
  await capture(page, "account-customer-not-found");
});

test("expired sign-in link, the service's sign-out page and its sign-in naming who is signed in", async ({ page }) => {
  await page.goto("/auth/error?error=LinkExpired");
  await expect(page.getByTestId("auth-error")).toContainText("expired or was already used");
  await capture(page, "auth-error-link-expired");

  await signIn(page, users.alice);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("button", { name: "Yes, sign me out" })).toBeVisible();
  await capture(page, "sandbox-sign-out");

  await page.getByRole("button", { name: "No, stay signed in" }).click();
  await page.getByRole("main").getByRole("button", { name: "Use another account" }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText(users.alice.name);
  await capture(page, "sandbox-sign-in-signed-in-as");
});

test("documents list (empty, full, database down) and a document's page", async ({ page, context, newBrowser }, testInfo) => {
  test.setTimeout(120_000);
  // Bob has no customer account, so no documents: the empty list.
  await signIn(page, users.bob);
  await page.goto("/documents");
  await expect(page.getByTestId("documents-empty")).toBeVisible();
  await capture(page, "documents-list-empty");

  await context.clearCookies();
  await signIn(page, users.alice);
  const uploads = [
    { name: "Service agreement 2026.pdf", doctype: "agreement" },
    { name: "Invoice 0042.pdf", doctype: "invoice" },
    { name: "NDA Example Corp.pdf", doctype: "nda" },
  ];
  for (const { name, doctype } of uploads) {
    const file = await writeRandomFile(testInfo.outputPath(name), 180 * 1024);
    await stageFile(page, file);
    await page.getByLabel("Document type").fill(doctype);
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("upload-success")).toBeVisible();
  }
  // A fresh page: the list without the finished upload rows above it.
  await page.goto("/documents");
  await expect(page.getByTestId("document-row").first()).toContainText("NDA Example Corp.pdf");
  await capture(page, "documents-list");

  await page.getByTestId("document-row").first().getByRole("link").click();
  await expect(page.getByTestId("audit-trail").locator('[data-event="uploaded"]')).toBeVisible();
  await capture(page, "document-page");

  // An instance whose database does not answer: uploads would still work; the list says it is unavailable.
  const outage = await startStandaloneApp({
    dir: ".next/standalone",
    port: deployPorts.documentsOutage,
    name: "documents-outage",
    env: {
      ...sandboxEnv,
      AUTH_URL: deployUrls.documentsOutage,
      AUTH_SECRET: "e2e-only-documents-outage-secret-0123456789abcdef",
      DATABASE_URL: `postgresql://app@127.0.0.1:${deployPorts.documentsOutageDatabase}/app`,
    },
  });
  try {
    const other = await (await newBrowser({ baseURL: deployUrls.documentsOutage })).newPage();
    await signIn(other, users.alice);
    await other.goto("/documents");
    await expect(other.getByTestId("documents-unavailable")).toContainText("Your document list is unavailable right now");
    await capture(other, "documents-list-database-down");
  } finally {
    await outage.stop();
  }
});

