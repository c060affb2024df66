import { utimes } from "node:fs/promises";
import path from "node:path";
import type { CDPSession, Page, Request } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { expectNoAxeViolations } from "../fixtures/axe";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, expectOnDocumentsList, expectStored, recordUploadProgress, stageFile, watchBodiesSentToApp, watchStorageRequests, writeRandomFile, type GeneratedFile } from "./support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });

// The app's defaults: files above 64 MiB go up in 8 MiB blocks.
const BLOCK = 8 * MiB;
const shot = (name: string) => path.join(import.meta.dirname, "../../screenshots", `documents-blocks-${name}.png`);

const comp = (req: Request) => new URL(req.url()).searchParams.get("comp");
const blockIndex = (req: Request) => Number(atob(new URL(req.url()).searchParams.get("blockid") ?? "").split("-")[1]);
const blockBytes = (file: GeneratedFile, index: number) => Math.min(BLOCK, file.size - index * BLOCK);
const blockCount = (file: GeneratedFile) => Math.ceil(file.size / BLOCK);

/** Put Block requests the page sent to storage, and how many storage answered 201. */
function watchBlocks(page: Page) {
  const requests = watchStorageRequests(page);
  const staged = new Set<number>();
  page.on("response", (res) => {
    if (res.url().startsWith(urls.blob) && comp(res.request()) === "block" && res.status() === 201) staged.add(blockIndex(res.request()));
  });
  return {
    puts: () => requests.filter((r) => r.method() === "PUT"),
    blocks: () => requests.filter((r) => r.method() === "PUT" && comp(r) === "block"),
    staged,
  };
}

async function throttleUpload(page: Page, bytesPerSecond: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return cdp;
}

const savedUploads = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open("esign-uploads", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("interrupted", { keyPath: "id" });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction("interrupted").objectStore("interrupted").getAll();
          all.onsuccess = () => resolve(all.result);
        };
      }),
  );

/**
 * No resume point left in IndexedDB. Polled: the removal is an IndexedDB write the page does not wait for (queued
 * behind a save of the same upload that is already writing), so it can land a moment after the page shows the
 * outcome. Compares the ids only: a failure must not print a saved point, whose upload link carries a SAS signature.
 */
async function expectNoSavedUploads(page: Page) {
  await expect.poll(async () => ((await savedUploads(page)) as { id: string }[]).map((saved) => saved.id), { timeout: 10_000 }).toEqual([]);
}

async function startUpload(page: Page, file: GeneratedFile) {
  await stageFile(page, file);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
}

test.describe("block upload", () => {
  // Independent tests (each resets the sandbox), long for their large files: spread over the workers.
  test.describe.configure({ mode: "parallel" });
  test.beforeEach(async ({ admin }) => {
    await admin.reset();
  });

  test("a 200 MiB file goes up in 8 MiB blocks with per-block MD5, with steady progress, and arrives intact, without its bytes touching the app", async ({ page, admin }, testInfo) => {
    test.setTimeout(180_000);
    const file = await writeRandomFile(testInfo.outputPath("big-scan.bin"), 200 * MiB);
    const bodiesToApp = watchBodiesSentToApp(page);
    await signIn(page, users.alice);
    const watch = watchBlocks(page);
    await stageFile(page, file);
    const progress = await recordUploadProgress(page, "Uploading in blocks");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 150_000 });
    const readings = await progress();
    for (let i = 1; i < readings.length; i++) expect(readings[i]!).toBeGreaterThanOrEqual(readings[i - 1]!);
    expect(readings.length, `readings ${readings.join(",")}`).toBeGreaterThanOrEqual(5);
    expect(new Set(readings).size, `readings ${readings.join(",")}`).toBeGreaterThanOrEqual(4);
    expect(Math.max(...readings)).toBeGreaterThanOrEqual(90);

    const blocks = watch.blocks();
    expect(blocks).toHaveLength(25);
    expect(new Set(blocks.map(blockIndex)).size).toBe(25);
    for (const block of blocks) expect((await block.allHeaders())["content-md5"]).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(watch.puts().map(comp).filter((c) => c !== "block")).toEqual(["blocklist"]);
    await expectStored((await admin.documents())[0], file);
    await expect(page.getByTestId("upload-success")).toContainText(file.md5Hex);
    await expectNoSavedUploads(page);
    expect(bodiesToApp()).toEqual([]);
  });

  test("a block whose connection drops at about 50 % is sent again alone; bytes sent stay within the file size + 2 blocks", async ({ page, admin }, testInfo) => {
    test.setTimeout(120_000);
    const file = await writeRandomFile(testInfo.outputPath("dropped.bin"), 96 * MiB);
    await signIn(page, users.alice);
    const watch = watchBlocks(page);
    const half = blockCount(file) / 2;
    let aborted = 0;
    await page.route(
      (url) => url.searchParams.get("comp") === "block" && atob(url.searchParams.get("blockid") ?? "").endsWith(`-${String(half).padStart(5, "0")}`),
      async (route) => {
        if (aborted++ === 0) return route.abort("connectionreset");
        return route.continue();
      },
    );
    await startUpload(page, file);
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 90_000 });

    const sent = watch.blocks().reduce((sum, r) => sum + blockBytes(file, blockIndex(r)), 0);
    expect(aborted).toBe(2);
    expect(watch.blocks().filter((r) => blockIndex(r) === half)).toHaveLength(2);
    expect(sent).toBeGreaterThan(file.size);
    expect(sent).toBeLessThanOrEqual(file.size + 2 * BLOCK);
    await expectStored((await admin.documents())[0], file);
  });

  test("Pause stops the upload and Resume sends only the blocks still missing", async ({ page, admin }, testInfo) => {
    test.setTimeout(120_000);
    const file = await writeRandomFile(testInfo.outputPath("paused.bin"), 72 * MiB);
    await signIn(page, users.alice);
    const cdp = await throttleUpload(page, 16 * MiB);
    const watch = watchBlocks(page);
    await startUpload(page, file);
    await expect.poll(() => watch.staged.size, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    await page.getByRole("button", { name: "Pause upload of paused.bin" }).click();
    const row = page.getByTestId("upload-item");
    await expect(row).toHaveAttribute("data-status", "paused");
    // The Pause button is gone: a keyboard user lands on Resume, not on the page's top.
    await expect(page.getByRole("button", { name: "Resume upload of paused.bin" })).toBeFocused();
    await expect(row.getByRole("status")).toHaveText("Paused — Resume sends only the blocks still missing");
    await expect(row.getByTestId("upload-progress-text")).toHaveText(/^\d+% · [\d.]+ MiB of 72 MiB$/);
    // What the app counts as staged is what it saved for the resume: a block whose 201 reached the network just as
    // Pause aborted its request is not among them, and is rightly sent again. Read once two reads agree.
    let previous = "";
    await expect
      .poll(async () => {
        const now = JSON.stringify(((await savedUploads(page)) as { point: { staged: number[] } | null }[])[0]?.point?.staged ?? []);
        const settled = now === previous && now !== "[]";
        previous = now;
        return settled;
      }, { intervals: [200] })
      .toBe(true);
    const stagedAtPause = new Set(JSON.parse(previous) as number[]);
    for (const index of stagedAtPause) expect(watch.staged.has(index), `block ${index} counted staged without storage's 201`).toBe(true);
    const sentBeforeResume = watch.blocks().length;
    await page.screenshot({ path: shot("desktop-paused"), fullPage: true });
    await expectNoAxeViolations(page, "a paused block upload");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: shot("mobile-paused"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByRole("button", { name: "Resume upload of paused.bin" }).click();
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 60_000 });
    const afterResume = watch.blocks().slice(sentBeforeResume).map(blockIndex);
    expect(afterResume.some((i) => stagedAtPause.has(i))).toBe(false);
    expect(afterResume.length).toBe(blockCount(file) - stagedAtPause.size);
    await expectStored((await admin.documents())[0], file);
  });

  test("after a reload the row offers Resume: a different file of the same size is refused, the same file sends only the missing blocks", async ({ page, admin }, testInfo) => {
    test.setTimeout(150_000);
    const file = await writeRandomFile(testInfo.outputPath("reloaded.bin"), 96 * MiB);
    const other = await writeRandomFile(testInfo.outputPath("other", "reloaded.bin"), 96 * MiB);
    // Same name, size and date: only the first block's MD5 tells them apart.
    await utimes(other.path, new Date("2026-01-01"), new Date("2026-01-01"));
    await utimes(file.path, new Date("2026-01-01"), new Date("2026-01-01"));
    await signIn(page, users.alice);
    const cdp = await throttleUpload(page, 16 * MiB);
    const watch = watchBlocks(page);
    await startUpload(page, file);
    await expect.poll(() => watch.staged.size, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    await page.reload();
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    const interrupted = page.getByTestId("interrupted-upload");
    await expect(interrupted).toContainText(/\d+ of 12 blocks sent/);
    await page.screenshot({ path: shot("desktop-resume-prompt"), fullPage: true });
    await expectNoAxeViolations(page, "the resume prompt after a reload");
    const resumeInput = interrupted.getByLabel(/Resume/);
    await resumeInput.setInputFiles(other.path);
    await expect(page.getByTestId("resume-refused")).toContainText("not the same file");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: shot("mobile-resume-refused"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const sentBefore = watch.blocks().length;
    await resumeInput.setInputFiles(file.path);
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 90_000 });
    const resumedBlocks = watch.blocks().slice(sentBefore);
    const resumedBytes = resumedBlocks.reduce((sum, r) => sum + blockBytes(file, blockIndex(r)), 0);
    expect(resumedBytes).toBeLessThan(file.size);
    expect(resumedBlocks.length).toBeLessThanOrEqual(12 - 3);
    const docs = await admin.documents();
    expect(docs).toHaveLength(1);
    await expectStored(docs[0], file);
    await expectNoSavedUploads(page);
  });

  test("a create-only SAS refuses Put Block, so the file goes in one PUT, and the row says so", async ({ page, admin }, testInfo) => {
    test.setTimeout(120_000);
    await admin.fault({ target: "sas", permissions: "c", count: 1 });
    const file = await writeRandomFile(testInfo.outputPath("fallback.bin"), 72 * MiB);
    await signIn(page, users.alice);
    const watch = watchBlocks(page);
    await startUpload(page, file);
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 90_000 });
    // Once stored, the note speaks of what happened, not of what is happening.
    await expect(page.getByTestId("upload-notice")).toHaveText("Storage refused staged blocks for this address, so the file was sent in one piece.");
    await page.screenshot({ path: shot("desktop-fallback"), fullPage: true });
    expect(watch.staged.size).toBe(0);
    const single = watch.puts().filter((r) => comp(r) === null);
    expect(single).toHaveLength(1);
    expect((await single[0]!.allHeaders())["x-ms-blob-type"]).toBe("BlockBlob");
    expect(watch.puts().some((r) => comp(r) === "blocklist")).toBe(false);
    await expectStored((await admin.documents())[0], file);
  });

  test("Cancel during a block upload commits nothing: no blob, nothing kept for a resume", async ({ page, admin }, testInfo) => {
    test.setTimeout(120_000);
    const file = await writeRandomFile(testInfo.outputPath("to-cancel.bin"), 72 * MiB);
    await signIn(page, users.alice);
    await throttleUpload(page, 16 * MiB);
    const watch = watchBlocks(page);
    await startUpload(page, file);
    await expect.poll(() => watch.staged.size, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    await page.getByRole("button", { name: "Cancel upload of to-cancel.bin" }).click();
    await expect(page.getByTestId("upload-item")).toHaveAttribute("data-status", "cancelled");
    await expect(page.getByTestId("upload-notice")).toHaveText("Blocks already sent were never committed; storage deletes them on its own.");
    await page.waitForTimeout(1000);
    expect(watch.puts().some((r) => comp(r) === "blocklist")).toBe(false);
    const [doc] = await admin.documents();
    expect(doc?.blob.exists).toBe(false);
    await expectNoSavedUploads(page);
  });

  test("a paused upload cancelled, and an interrupted one discarded after a reload, are Cancelled in the list, not left Uploading", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    // Names of this run only: the list holds earlier runs' documents too.
    const run = Date.now().toString(36);
    const paused = await writeRandomFile(testInfo.outputPath(`paused-${run}.bin`), 72 * MiB);
    const dropped = await writeRandomFile(testInfo.outputPath(`dropped-${run}.bin`), 72 * MiB);
    await signIn(page, users.alice);
    const cdp = await throttleUpload(page, 16 * MiB);
    const watch = watchBlocks(page);
    const statusOf = (file: GeneratedFile) => page.getByTestId("document-row").filter({ hasText: file.name }).locator("[data-status]");
    // The record hears of it a moment later (the browser's report).
    const expectListed = (file: GeneratedFile, status: string) => expectOnDocumentsList(page, () => expect(statusOf(file)).toHaveAttribute("data-status", status, { timeout: 2_000 }));

    await startUpload(page, paused);
    await expect.poll(() => watch.staged.size, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    await page.getByRole("button", { name: `Pause upload of ${paused.name}` }).click();
    await expect(page.getByTestId("upload-item")).toHaveAttribute("data-status", "paused");
    await page.getByRole("button", { name: `Cancel upload of ${paused.name}` }).click();
    await expect(page.getByTestId("upload-item")).toHaveAttribute("data-status", "cancelled");
    await expectListed(paused, "abandoned");
    await expect(statusOf(paused)).toHaveText("Cancelled");

    watch.staged.clear();
    await startUpload(page, dropped);
    await expect.poll(() => watch.staged.size, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    await page.reload();
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expectListed(dropped, "uploading");
    await page.getByTestId("interrupted-upload").getByRole("button", { name: /Discard/ }).click();
    await expect(page.getByTestId("interrupted-upload")).toHaveCount(0);
    await expectListed(dropped, "abandoned");
    await expectNoSavedUploads(page);
  });
});
