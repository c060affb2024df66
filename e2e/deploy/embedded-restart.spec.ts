import { readFileSync, rmSync } from "node:fs";
import { embeddedDatabaseDir } from "../../scripts/lib/standalone-app";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { expectOnDocumentsList, listedDocument, stageFile, writeRandomFile } from "../documents/support";
import { deployPorts, deployUrls } from "./origins";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

/**
 * The embedded database (PGlite, no DATABASE_URL) as deployed: the standalone server restarted on its folder keeps
 * every record, and a second server started on the same folder exits at start-up naming the fix. The lock itself is
 * tested in tests/unit/database-client.test.ts; this is the server's start-up path around it.
 */
test.use({ baseURL: deployUrls.embeddedRestart });

const AUTH_SECRET = "e2e-only-embedded-restart-auth-secret-0123456789";
const databaseDir = embeddedDatabaseDir(deployPorts.embeddedRestart);
// No balancer in front: the instance stops at once on SIGTERM instead of answering 503 to probes for 5 s first.
const env = { ...sandboxEnv, AUTH_URL: deployUrls.embeddedRestart, AUTH_SECRET, DATABASE_DIR: databaseDir, SHUTDOWN_READINESS_DELAY_MS: "0" };

test.describe("the embedded database", () => {
  let app: StandaloneApp | undefined;
  const start = async () => {
    await app?.stop();
    app = await startStandaloneApp({ dir: ".next/standalone", port: deployPorts.embeddedRestart, name: "embedded-restart", env });
  };

  test.afterAll(async () => {
    await app?.stop();
  });

  test("restarted, an instance keeps every record; a second process on its folder refuses to start and names DATABASE_URL", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    // A fresh folder: this run's records only.
    rmSync(databaseDir, { recursive: true, force: true });
    await start();
    await signIn(page, users.alice);
    const file = await writeRandomFile(testInfo.outputPath("kept-over-restart.pdf"), 32 * 1024);
    await stageFile(page, file);
    await page.getByLabel("Document type").fill("contract");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 30_000 });
    const itemId = (await page.getByTestId("upload-success").locator('[data-field="Item ID"]').textContent())!.trim();
    // The record is complete once the browser's "uploaded" report is in it (it used to reload the document's
    // page for at most 15 s; that page delivers nothing, and a slower machine took longer).
    await expectOnDocumentsList(page, () => expect(listedDocument(page, itemId).locator("[data-status]")).toHaveAttribute("data-status", "uploaded", { timeout: 1_000 }));
    await page.goto(`/documents/${itemId}`);
    const trail = page.getByTestId("audit-trail").getByRole("listitem");
    await expect(page.getByTestId("audit-trail").locator('[data-event="uploaded"]')).toBeVisible();
    const before = await trail.evaluateAll((items) => items.map((item) => item.getAttribute("data-event")));

    // A second server on the same folder: it exits at start-up, and its log says why and what to do.
    const secondLog = ".e2e-logs/embedded-restart-second.log";
    rmSync(secondLog, { force: true });
    const second = startStandaloneApp({ dir: ".next/standalone", port: deployPorts.embeddedRestartSecond, name: "embedded-restart-second", env });
    await expect(second).rejects.toThrow(/exited with 1/);
    const refusal = readFileSync(secondLog, "utf8");
    expect(refusal).toContain(`is already in use by process ${app!.child.pid}`);
    expect(refusal).toContain("set DATABASE_URL to a shared PostgreSQL");

    // The first is unharmed; restarted on its folder, it lists the document with the same audit trail.
    await start();
    await page.goto("/documents");
    await expect(page.getByTestId("document-row").filter({ hasText: file.name }).locator("[data-status]")).toHaveAttribute("data-status", "uploaded");
    await page.goto(`/documents/${itemId}`);
    await expect(page.getByTestId("document-record-facts").locator('[data-field="MD5"]')).toHaveText(file.md5Hex);
    expect(await trail.evaluateAll((items) => items.map((item) => item.getAttribute("data-event")))).toEqual(before);
    expect(before).toEqual(expect.arrayContaining(["created", "uploaded"]));
  });
});
