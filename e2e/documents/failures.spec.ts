import path from "node:path";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, expectOnDocumentsList, expectStored, listedDocument, stageFile, watchStorageRequests, writeRandomFile } from "./support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });

const upload = (page: import("@playwright/test").Page) => page.getByRole("button", { name: "Upload", exact: true }).click();

test.describe("document upload when something goes wrong", () => {
  // Independent tests (each resets the sandbox): spread over the workers.
  test.describe.configure({ mode: "parallel" });
  test.beforeEach(async ({ admin }) => {
    await admin.reset();
  });

  test("an expired upload link is replaced by a fresh one and the upload succeeds", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("renewal.pdf"), 2 * MiB);
    const storage = watchStorageRequests(page);
    await signIn(page, users.alice);
    await admin.fault({ target: "sas", expired: true, count: 1 });
    await stageFile(page, file);
    await upload(page);

    const success = page.getByTestId("upload-success");
    await expect(success).toBeVisible();
    const docs = await admin.documents();
    // The spec has no "renew SAS" operation: the fresh endpoint comes from creating the document again.
    expect(docs).toHaveLength(2);
    const stored = docs.find((d) => d.blob.exists);
    await expectStored(stored, file);
    expect(docs.filter((d) => !d.blob.exists)).toHaveLength(1);
    await expect(success.locator('[data-field="Item ID"]')).toHaveText(stored!.itemId);
    // The person is told which item was left without a file, in the row and in the app's record of that item.
    const abandoned = docs.find((d) => !d.blob.exists)!;
    await expect(success.locator('[data-field="Created first"]')).toContainText(abandoned.itemId);
    await page.screenshot({ path: path.join(import.meta.dirname, "../../screenshots/documents-renewed-upload.png"), fullPage: true });
    expect(storage.filter((r) => r.method() === "PUT")).toHaveLength(2);
    await expectOnDocumentsList(page, () => expect(listedDocument(page, abandoned.itemId).locator("[data-status]")).toHaveAttribute("data-status", "replaced", { timeout: 1_000 }));
    await page.goto(`/documents/${abandoned.itemId}`);
    await expect(page.getByTestId("document-record-facts").locator('[data-field="Replaced by"]')).toHaveText(stored!.itemId);
    await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "replaced");
  });

  test("explains a 403 when the fresh upload link is refused too", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("refused.pdf"), 256 * 1024);
    await signIn(page, users.alice);
    await admin.fault({ target: "sas", expired: true, count: 2 });
    await stageFile(page, file);
    await upload(page);

    await expect(page.getByTestId("upload-error")).toContainText("refused the upload link (403)");
    await expect(page.getByTestId("upload-success")).toHaveCount(0);
    const docs = await admin.documents();
    expect(docs).toHaveLength(2);
    expect(docs.every((d) => !d.blob.exists)).toBe(true);
    await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  });

  test("a corrupted MD5 is refused by storage with 400, explained, and nothing is stored", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("tampered.pdf"), 1 * MiB);
    await signIn(page, users.alice);
    // Stands in for bytes damaged on the way: the checksum no longer matches what arrives.
    await page.route(`${urls.blob}/**`, (route) =>
      route.continue({ headers: { ...route.request().headers(), "x-ms-blob-content-md5": "AAAAAAAAAAAAAAAAAAAAAA==" } }),
    );
    await stageFile(page, file);
    const put = page.waitForResponse((res) => res.request().method() === "PUT");
    await upload(page);

    expect((await put).status()).toBe(400);
    await expect(page.getByTestId("upload-error")).toContainText("do not match the file's checksum (400)");
    await expect(page.getByTestId("upload-success")).toHaveCount(0);
    const [doc] = await admin.documents();
    expect(doc?.name).toBe("tampered.pdf");
    expect(doc?.blob.exists).toBe(false);
    // The app's record keeps the failure with the code the user was shown.
    await expectOnDocumentsList(page, () => expect(listedDocument(page, doc!.itemId).locator("[data-status]")).toHaveAttribute("data-status", "failed", { timeout: 1_000 }));
  });

  test("an upload endpoint on a host that is not allowed is refused before any byte is sent", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("elsewhere.pdf"), 64 * 1024);
    const sentToForeignHost: string[] = [];
    const puts: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("storage.example.net")) sentToForeignHost.push(req.url());
      if (req.method() === "PUT") puts.push(req.url());
    });
    await signIn(page, users.alice);
    await page.route("**/api/documents", async (route) => {
      const response = await route.fetch();
      const created = await response.json();
      const foreign = new URL(created.uploadendpoint);
      foreign.protocol = "https:";
      foreign.host = "storage.example.net";
      await route.fulfill({ response, json: { ...created, uploadendpoint: foreign.href } });
    });
    await stageFile(page, file);
    await upload(page);

    await expect(page.getByTestId("upload-error")).toContainText("not an allowed storage host");
    expect(sentToForeignHost).toEqual([]);
    expect(puts).toEqual([]);
    const [doc] = await admin.documents();
    expect(doc?.blob.exists).toBe(false);
  });

  test("a dropped connection is retried with backoff and the upload completes", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("flaky.pdf"), 512 * 1024);
    await signIn(page, users.alice);
    let dropped = 0;
    await page.route(`${urls.blob}/**`, (route) => {
      if (route.request().method() === "PUT" && dropped++ === 0) return route.abort("connectionreset");
      return route.continue();
    });
    await stageFile(page, file);
    await upload(page);

    await expect(page.getByText(/Connection lost — retrying in 1 sec \(attempt 1 of 3\)/)).toBeVisible();
    await expect(page.getByTestId("upload-success")).toBeVisible();
    await expectStored((await admin.documents())[0], file);
  });

  test("a service outage while creating the document is explained and can be retried", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("outage.pdf"), 1024);
    await signIn(page, users.alice);
    await admin.fault({ target: "document", status: 503, count: 1 });
    await stageFile(page, file);
    await upload(page);

    await expect(page.getByTestId("upload-error")).toContainText("not available right now");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByTestId("upload-success")).toBeVisible();
    await expectStored((await admin.documents())[0], file);
  });

  test("a malformed answer from the service is reported with a reference and nothing is uploaded", async ({ page, admin }, testInfo) => {
    const file = await writeRandomFile(testInfo.outputPath("malformed.pdf"), 1024);
    const storage = watchStorageRequests(page);
    await signIn(page, users.alice);
    await admin.fault({ target: "document", malformed: true, count: 1 });
    await stageFile(page, file);
    await upload(page);

    await expect(page.getByTestId("upload-error")).toContainText(/did not understand.*reference [0-9a-f-]{36}/);
    expect(storage).toEqual([]);
  });

  test("the page's content security policy lets the browser connect only to the app and the configured storage", async ({ page }) => {
    await signIn(page, users.alice);
    const response = await page.goto("/documents");
    const policy = response!.headers()["content-security-policy"] ?? "";
    expect(policy.split("; ")).toContain(`connect-src 'self' ${urls.blob}`);
    const blockedUri = await page.evaluate(() => {
      const violation = new Promise<string>((resolve) =>
        document.addEventListener("securitypolicyviolation", (e) => resolve(e.blockedURI), { once: true }),
      );
      void fetch("https://storage.example.net/probe", { method: "PUT", body: "x" }).catch(() => {});
      return violation;
    });
    expect(blockedUri).toContain("storage.example.net");
  });
});
