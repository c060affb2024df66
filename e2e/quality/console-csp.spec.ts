import type { Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { watchPageProblems } from "../fixtures/page-problems";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, writeRandomFile } from "../documents/support";

/**
 * The main flows, watched for what a user never sees but the browser reports: console errors, uncaught
 * exceptions, failed requests or 4xx/5xx answers (a missing icon is a 404), and CSP violations.
 */
async function expectClean(page: Page, watch: Awaited<ReturnType<typeof watchPageProblems>>) {
  // Lets late reports (a violation event, a console message after the last response) arrive.
  await page.waitForTimeout(300);
  expect(watch.violations(), "CSP violations reported by the browser").toEqual([]);
  expect(watch.problems(), "console errors, exceptions and failed requests").toEqual([]);
}

test("signed out: landing, auth error and the sign-in prompts are clean", async ({ page, context }) => {
  const watch = await watchPageProblems(context, [urls.app]);
  for (const path of ["/", "/auth/error?error=AccessDenied", "/account", "/documents"]) {
    await page.goto(path);
    await expect(page.getByRole("main")).toBeVisible();
  }
  await expectClean(page, watch);
});

test("signed in: account, refresh, navigation, document upload and sign-out are clean", async ({ page, context, admin }, testInfo) => {
  await admin.reset();
  const watch = await watchPageProblems(context, [urls.app]);
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(page.getByRole("button", { name: "Refresh" })).toBeEnabled();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Documents" }).click();
  await page.waitForURL("**/documents");
  const file = await writeRandomFile(testInfo.outputPath("quality-check.pdf"), MiB);
  await page.getByLabel("Choose files").setInputFiles(file.path);
  // A name that is too short is refused in the form (no zod, so no eval probe against the CSP).
  await page.getByLabel("Name").fill("ab");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("Name must have at least 3 characters.")).toBeVisible();
  await page.getByLabel("Name").fill("quality-check.pdf");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  // MD5 in the worker (wasm), create, PUT to storage: the upload machinery loaded on demand.
  await expect(page.getByTestId("upload-success")).toContainText(file.md5Hex);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  // Through the service's own sign-out confirmation (RP-initiated logout) and back to the landing page.
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page.getByRole("main").getByRole("button", { name: "Sign in with eSign" })).toBeVisible();
  await expectClean(page, watch);
});

test("a user without a customer account sees that state cleanly", async ({ page, context }) => {
  const watch = await watchPageProblems(context, [urls.app]);
  await signIn(page, users.bob);
  await expect(page.getByTestId("customer-not-found")).toBeVisible();
  await expectClean(page, watch);
});

test("the check catches a CSP violation the browser reports", async ({ page, context }) => {
  const watch = await watchPageProblems(context, [urls.app]);
  // The landing page as served (with its CSP header), plus an inline script that lacks the page's nonce.
  await page.route(`${urls.app}/`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace("</body>", "<script>window.inlineRan = true</script></body>");
    await route.fulfill({ response, body: html });
  });
  await page.goto("/");
  await expect.poll(() => watch.violations().map((v) => v.directive)).toContain("script-src-elem");
  expect(await page.evaluate(() => "inlineRan" in window)).toBe(false);
});
