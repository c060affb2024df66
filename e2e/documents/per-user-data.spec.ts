import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { expectNoAxeViolations } from "../fixtures/axe";
import { fillSandboxSignIn, type User } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, stageFile, writeRandomFile, type GeneratedFile } from "./support";

// Sandbox users whose id_token carries only `sub`: no email, no name (sandbox/users.ts, subjectOnly).
const carol: User = { email: "carol@example.com", password: "carol-password", name: "Carol Example", sub: "c41f7a2e-5d83-4b90-a6e1-2f8c9d0b7e54" };
const dave: User = { email: "dave@example.com", password: "dave-password", name: "Dave Example", sub: "d52e8b3f-6e94-4ca1-b7f2-3a9d0e1c8f65" };
const shot = (name: string) => path.join(import.meta.dirname, "../../screenshots", `per-user-data-${name}.png`);

async function signInAs(page: Page, user: User) {
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await fillSandboxSignIn(page, user);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL("**/account");
  // Nothing in the id_token to show but that someone is signed in.
  await expect(page.getByTestId("signed-in-user")).toHaveText("Signed in");
}

async function upload(page: Page, file: GeneratedFile) {
  await stageFile(page, file);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 60_000 });
}

/** Leaves a block upload half done: the page reloads while blocks are still going up. */
async function interruptBlockUpload(page: Page, file: GeneratedFile) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 16 * MiB });
  let staged = 0;
  page.on("response", (res) => {
    if (res.url().startsWith(urls.blob) && new URL(res.url()).searchParams.get("comp") === "block" && res.status() === 201) staged += 1;
  });
  await stageFile(page, file);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect.poll(() => staged, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await page.reload();
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

/** Everything this origin keeps in the browser: IndexedDB's saved uploads, localStorage and sessionStorage. */
const browserData = (page: Page) =>
  page.evaluate(async () => {
    const saved = await new Promise<unknown[]>((resolve, reject) => {
      const open = indexedDB.open("esign-uploads", 1);
      open.onupgradeneeded = () => open.result.createObjectStore("interrupted", { keyPath: "id" });
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction("interrupted").objectStore("interrupted").getAll();
        all.onsuccess = () => resolve(all.result);
      };
    });
    return JSON.stringify({ saved, local: { ...localStorage }, session: { ...sessionStorage } });
  });

test.describe("browser data per user, keyed by subject", () => {
  test("two users without email or name in one browser see only their own documents and interrupted uploads; sign-out leaves no upload link", async ({ page, context }, testInfo) => {
    test.setTimeout(240_000);
    const carolsDoc = await writeRandomFile(testInfo.outputPath("carol-contract.pdf"), 256 * 1024);
    const carolsBig = await writeRandomFile(testInfo.outputPath("carol-scan.bin"), 72 * MiB);
    const davesDoc = await writeRandomFile(testInfo.outputPath("dave-invoice.pdf"), 256 * 1024);

    await signInAs(page, carol);
    await upload(page, carolsDoc);
    await interruptBlockUpload(page, carolsBig);
    await expect(page.getByTestId("interrupted-upload")).toContainText("carol-scan.bin");
    await expect(page.getByTestId("document-row")).toContainText(["carol-contract.pdf"]);
    expect(await browserData(page)).toMatch(/sig=/);

    // Carol's session ends without a sign-out (it expired, the browser was closed): Dave signs in next.
    await context.clearCookies();
    await signInAs(page, dave);
    await page.goto("/documents");
    await expect(page.getByRole("heading", { name: "Documents", exact: true })).toBeVisible();
    await expect(page.getByTestId("interrupted-upload")).toHaveCount(0);
    // The record outlives the sandbox: earlier runs may have left Dave's own documents, never Carol's.
    await expect(page.getByTestId("document-list")).toBeVisible();
    await expect(page.getByTestId("document-row").filter({ hasText: "carol-" })).toHaveCount(0);
    await upload(page, davesDoc);
    await page.reload();
    await expect(page.getByTestId("document-row").first()).toContainText("dave-invoice.pdf");
    await expect(page.getByTestId("document-row").filter({ hasText: "carol-" })).toHaveCount(0);
    await expect(page.getByTestId("interrupted-upload")).toHaveCount(0);

    // Dave has nothing interrupted: he is signed out without being asked.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await page.waitForURL((url) => url.origin === urls.app && url.pathname === "/");

    // Carol again: her own list and her interrupted upload are back, none of Dave's.
    await signInAs(page, carol);
    await page.goto("/documents");
    await expect(page.getByTestId("document-row")).toContainText([/carol-scan\.bin/, /carol-contract\.pdf/]);
    await expect(page.getByTestId("document-row").filter({ hasText: "dave-" })).toHaveCount(0);
    await expect(page.getByTestId("interrupted-upload")).toContainText("carol-scan.bin");

    // Her sign-out says the interrupted upload will be forgotten; Cancel keeps everything.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Sign out and forget 1 interrupted upload?" });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.screenshot({ path: shot("sign-out-confirmation") });
    await expectNoAxeViolations(page, "the sign-out confirmation");
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    expect(await browserData(page)).toMatch(/sig=/);

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await confirm.getByRole("button", { name: "Sign out and forget" }).click();
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await page.waitForURL((url) => url.origin === urls.app && url.pathname === "/");
    const left = await browserData(page);
    expect(left).not.toMatch(/sig=/);
    expect(left).not.toContain(urls.blob);
    expect(left).not.toMatch(/uploadendpoint/i);
  });
});
