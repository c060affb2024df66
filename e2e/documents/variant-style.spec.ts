import type { APIRequestContext } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { expectStored, stageFile, writeRandomFile } from "./support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });

// The same journeys under both of the sandbox's response styles: the variant one answers within the spec but
// with upper-case non-RFC GUIDs, subdocid "0", an empty sas and plain-text 400 bodies.
const styles = ["standard", "variant"] as const;

async function setResponseStyle(request: APIRequestContext, style: (typeof styles)[number]) {
  const response = await request.put(`${urls.api}/_sandbox/response-style`, { data: { style } });
  expect(response.status()).toBe(200);
}

for (const style of styles) {
  test.describe(`${style} response style`, () => {
    test.beforeEach(async ({ admin, request }) => {
      await admin.reset();
      await setResponseStyle(request, style);
    });
    // Reset restores the standard style for the specs that follow.
    test.afterEach(async ({ admin }) => admin.reset());

    test("uploads a file and shows the ids and sub-document exactly as the service sent them", async ({ page, admin }, testInfo) => {
      const file = await writeRandomFile(testInfo.outputPath("variant-contract.pdf"), 256 * 1024 + 7);
      await signIn(page, users.alice);
      await stageFile(page, file);
      await page.getByLabel("Document type").fill("contract");
      await page.getByRole("button", { name: "Upload", exact: true }).click();

      const success = page.getByTestId("upload-success");
      await expect(success).toContainText(file.md5Hex);
      const [stored] = await admin.documents();
      await expectStored(stored, file);
      if (style === "variant") {
        expect(stored!.itemId).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-C[0-9A-F]{3}-[0-9A-F]{12}$/);
        expect(stored!.subdocid).toBe(0);
      }
      await expect(success.locator('[data-field="Item ID"]')).toHaveText(stored!.itemId);
      await expect(success.locator('[data-field="File ID"]')).toHaveText(stored!.fileId);
      await expect(success.locator('[data-field="Sub-document"]')).toHaveText(String(stored!.subdocid));
    });

    test("a 400 from the service on create is shown as the name error, whatever its body", async ({ page, admin }, testInfo) => {
      const file = await writeRandomFile(testInfo.outputPath("refused.pdf"), 1024);
      await admin.fault({ target: "document", status: 400 });
      await signIn(page, users.alice);
      await stageFile(page, file);
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      await expect(page.getByText("Name must have at least 3 characters.")).toBeVisible();
      expect((await admin.stats()).operations.document).toEqual({ 400: 1 });
      expect(await admin.documents()).toEqual([]);
    });

    test("a user without a customer account is told so, whatever the 400's body", async ({ page }) => {
      await signIn(page, users.bob);
      await expect(page.getByTestId("customer-not-found")).toContainText("No customer account yet");
      const res = await page.request.get("/api/account");
      expect(res.status()).toBe(404);
      expect((await res.json()).error.code).toBe("CUSTOMER_NOT_FOUND");
    });
  });
}
