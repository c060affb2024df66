import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, expectOnDocumentsList, expectStored, listedDocument, stageFile, watchBodiesSentToApp, writeRandomFile } from "./support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });

test.describe("document upload", () => {
  test.beforeEach(async ({ admin }) => {
    await admin.reset();
  });

  test("uploads a few-MiB file straight to storage, where its size and MD5 match the local file", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("contract-2024.pdf"), 3 * MiB + 123);
    const bodiesToApp = watchBodiesSentToApp(page);
    await signIn(page, users.alice);
    await stageFile(page, file);
    await expect(page.getByLabel("Name")).toHaveValue("contract-2024.pdf");
    await page.getByLabel("Document type").fill("contract");

    const put = page.waitForResponse((res) => res.request().method() === "PUT" && res.url().startsWith(urls.blob));
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    const putResponse = await put;
    expect(putResponse.status()).toBe(201);
    const sentHeaders = await putResponse.request().allHeaders();
    expect(sentHeaders["content-type"]).toBe("application/octet-stream");
    expect(sentHeaders["x-ms-blob-type"]).toBe("BlockBlob");
    expect(sentHeaders["x-ms-blob-content-md5"]).toBe(Buffer.from(file.md5Hex, "hex").toString("base64"));

    const success = page.getByTestId("upload-success");
    await expect(success).toContainText(file.md5Hex);
    const [stored] = await admin.documents();
    await expectStored(stored, file);
    expect(stored!).toMatchObject({ name: "contract-2024.pdf", doctype: "contract" });
    await expect(success.locator('[data-field="Item ID"]')).toHaveText(stored!.itemId);
    await expect(success.locator('[data-field="File ID"]')).toHaveText(stored!.fileId);
    await expect(success.locator('[data-field="Sub-document"]')).toHaveText(String(stored!.subdocid));

    // The list below is the app's record, refreshed from the server once the upload is done.
    await expect(listedDocument(page, stored!.itemId).locator("[data-status]")).toHaveAttribute("data-status", "uploaded");
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(storage).not.toMatch(/sig=|uploadendpoint|sas/i);
    expect(bodiesToApp()).toEqual([]);
  });

  test("cancelling mid-upload stops it, shows no success and stores nothing", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("to-cancel.pdf"), 16 * MiB);
    await signIn(page, users.alice);
    // A slow line (2 MiB/s up) so the upload is still running when Cancel is pressed.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * MiB });
    await stageFile(page, file);
    await page.getByRole("button", { name: "Upload", exact: true }).click();

    const bar = page.getByRole("progressbar", { name: /^Uploading/ });
    await expect(bar).toHaveAttribute("aria-valuenow", /^([1-9]|[1-8][0-9])$/, { timeout: 20_000 });
    await page.getByRole("button", { name: "Cancel upload of to-cancel.pdf" }).click();

    const item = page.getByTestId("upload-item");
    await expect(item).toHaveAttribute("data-status", "cancelled");
    await expect(page.getByTestId("upload-cancelled")).toHaveText("Upload cancelled. The file was not stored.");
    await expect(item).toBeFocused();
    await page.waitForTimeout(1000);
    await expect(page.getByTestId("upload-success")).toHaveCount(0);
    const [doc] = await admin.documents();
    expect(doc?.blob.exists).toBe(false);
    // The document exists at the service without a file: the app's record says the upload was cancelled.
    await expectOnDocumentsList(page, () => expect(listedDocument(page, doc!.itemId).locator("[data-status]")).toHaveAttribute("data-status", "abandoned", { timeout: 1_000 }));
  });
});
