import { devices, type Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { stageFile, writeRandomFile, type GeneratedFile } from "./support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });

async function upload(page: Page, file: GeneratedFile, doctype: string) {
  await stageFile(page, file);
  await page.getByLabel("Document type").fill(doctype);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 30_000 });
}

const rowOf = (page: Page, file: GeneratedFile) => page.getByTestId("document-row").filter({ hasText: file.name });

test.describe("the app's record of a user's documents", () => {
  test("follows the user to another device with its audit trail; never shows it to anyone else; search, filter and remove", async ({ page, newBrowser }, testInfo) => {
    test.setTimeout(120_000);
    // Names unique to this run: the record outlives the sandbox's reset, and the list may hold earlier runs' documents.
    const run = Date.now().toString(36);
    const contract = await writeRandomFile(testInfo.outputPath(`contract-${run}.pdf`), 300 * 1024);
    const invoice = await writeRandomFile(testInfo.outputPath(`invoice-${run}.pdf`), 200 * 1024);

    // Device A (desktop Chrome): two uploads. The list below the form refreshes from the server after each.
    await signIn(page, users.alice);
    await upload(page, contract, "contract");
    await expect(rowOf(page, contract)).toBeVisible();
    await upload(page, invoice, "invoice");
    await expect(rowOf(page, invoice).locator("[data-status]")).toHaveAttribute("data-status", "uploaded");
    const itemId = await page.getByTestId("upload-success").locator('[data-field="Item ID"]').textContent();

    // Device B: another browser (no shared storage), a phone's user agent and viewport.
    const phone = await newBrowser({ ...devices["Pixel 7"] });
    const b = await phone.newPage();
    await signIn(b, users.alice);
    await b.goto("/documents");
    const rows = b.getByTestId("document-row");
    // Newest first.
    await expect(rows.filter({ hasText: run })).toHaveText([new RegExp(invoice.name), new RegExp(contract.name)]);

    await b.getByRole("link", { name: contract.name }).click();
    await expect(b.getByRole("heading", { name: contract.name, level: 1 })).toBeVisible();
    const facts = b.getByTestId("document-record-facts");
    await expect(facts.locator('[data-field="MD5"]')).toHaveText(contract.md5Hex);
    await expect(facts.locator('[data-field="Size"]')).toContainText(`${contract.size.toLocaleString("en")} bytes`);
    await expect(facts.locator('[data-field="Type"]')).toHaveText("contract");
    const trail = b.getByTestId("audit-trail");
    await expect(trail.getByRole("listitem").first()).toHaveAttribute("data-event", "created");
    const uploaded = trail.locator('[data-event="uploaded"]');
    await expect(uploaded.locator('[data-key="md5"]')).toHaveText(contract.md5Hex);
    await expect(uploaded.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
    // Reported from device A (desktop Chrome), not from this phone.
    await expect(uploaded).toContainText("Chrome");
    await expect(uploaded).not.toContainText("Android");

    // Search by name, filter by type and status: a GET form, each result its own URL.
    await b.goto("/documents");
    await b.getByLabel("Search documents").fill(`invoice-${run}`);
    await b.getByRole("button", { name: "Search" }).click();
    await expect(rows).toHaveText([new RegExp(invoice.name)]);
    await b.goto(`/documents?doctype=contract&status=failed`);
    await expect(rows.filter({ hasText: run })).toHaveCount(0);
    await b.goto(`/documents?doctype=contract&status=uploaded&q=${run}`);
    await expect(rows).toHaveText([new RegExp(contract.name)]);

    // Remove from this list: says the service keeps the document; the record leaves the list on every device.
    await rows.getByRole("link", { name: contract.name }).click();
    await b.getByRole("button", { name: "Remove from this list" }).click();
    const dialog = b.getByRole("dialog", { name: "Remove from this list?" });
    await expect(dialog).toContainText("nothing is deleted at the service");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await dialog.getByRole("button", { name: "Remove from this list" }).click();
    await b.waitForURL((url) => url.pathname === "/documents");
    await expect(rows.filter({ hasText: contract.name })).toHaveCount(0);
    await page.reload();
    await expect(rowOf(page, contract)).toHaveCount(0);
    await expect(rowOf(page, invoice)).toBeVisible();

    // Bob, signed in on a third browser, sees none of Alice's documents, not even by the document's address.
    const bobs = await (await newBrowser()).newPage();
    await signIn(bobs, users.bob);
    await bobs.goto("/documents");
    await expect(bobs.getByTestId("document-list")).toBeVisible();
    await expect(bobs.getByTestId("document-row").filter({ hasText: run })).toHaveCount(0);
    const byUrl = await bobs.goto(`/documents/${itemId}`);
    expect(byUrl?.status()).toBe(404);
    await expect(bobs.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(bobs.getByText(invoice.name)).toHaveCount(0);
    // Nor does a signed-out visitor.
    const visitor = await (await newBrowser()).newPage();
    expect((await visitor.goto(`/documents/${itemId}`))?.status()).toBe(404);
  });
});
