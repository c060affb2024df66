import path from "node:path";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, stageFile, writeRandomFile } from "./support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });

// Screenshots of each state for a human to look at; gitignored.
const shot = (name: string) => path.join(import.meta.dirname, "../../screenshots", `documents-${name}.png`);

async function expectNoSidewaysScroll(page: import("@playwright/test").Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "page wider than the screen").toBeLessThanOrEqual(0);
}

test.describe("documents page layout", () => {
  test.beforeEach(async ({ admin }) => {
    await admin.reset();
  });

  test("shows empty, uploading, success and error states without sideways scrolling on a 390 px phone", async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 390, height: 844 });
    const file = await writeRandomFile(testInfo.outputPath("Quarterly report Q3 2026 final signed.pdf"), 12 * MiB);
    await signIn(page, users.alice);
    await page.goto("/documents");
    await expect(page.getByRole("heading", { name: "Documents", level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: shot("mobile-empty"), fullPage: true });

    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 3 * MiB });
    await stageFile(page, file);
    await page.getByLabel("Document type").fill("report");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByRole("progressbar", { name: /^Uploading/ })).toHaveAttribute("aria-valuenow", /^[1-9][0-9]?$/, { timeout: 20_000 });
    await expect(page.getByTestId("upload-progress-text")).toContainText("left");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: shot("mobile-uploading"), fullPage: true });
    // The same moment at desktop width, for the README; back to the phone for the rest.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: shot("desktop-uploading"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 30_000 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: shot("mobile-success"), fullPage: true });

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: shot("desktop-success"), fullPage: true });

    await page.route(`${urls.blob}/**`, (route) => route.abort("connectionrefused"));
    await page.getByLabel("Choose files").setInputFiles(file.path);
    await page.getByLabel("Name").fill("ab");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByText("Name must have at least 3 characters.")).toBeVisible();
    await page.screenshot({ path: shot("desktop-name-error"), fullPage: true });
    await page.getByLabel("Name").fill("Unreachable storage.pdf");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("upload-error")).toContainText("could not be reached", { timeout: 20_000 });
    await page.screenshot({ path: shot("desktop-error"), fullPage: true });
  });
});
