import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, expectStored, stageFile, watchBodiesSentToApp, writeRandomFile } from "./support";

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

    await page.reload();
    await expect(page.getByTestId("recent-document")).toContainText(["contract-2024.pdf"]);
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(storage).toContain(stored!.itemId);
    expect(storage).not.toMatch(/sig=|uploadendpoint|sas/i);
    expect(bodiesToApp()).toEqual([]);
  });
});
