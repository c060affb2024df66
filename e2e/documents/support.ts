import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { expect, type Page, type Request } from "@playwright/test";
import { urls } from "../ports";

export type GeneratedFile = { path: string; name: string; size: number; md5Hex: string };

export const MiB = 1024 * 1024;

/** Writes `size` random bytes to disk 1 MiB at a time (never the whole file in memory) and returns its MD5. */
export async function writeRandomFile(filePath: string, size: number): Promise<GeneratedFile> {
  await mkdir(path.dirname(filePath), { recursive: true });
  const out = createWriteStream(filePath);
  const md5 = createHash("md5");
  // One random MiB repeated with a changing prefix: incompressible enough, and fast for 200 MiB.
  const block = randomBytes(MiB);
  for (let written = 0, i = 0; written < size; i++) {
    const chunk = Buffer.from(block.subarray(0, Math.min(MiB, size - written)));
    chunk.writeUInt32BE(i, 0);
    md5.update(chunk);
    if (!out.write(chunk)) await once(out, "drain");
    written += chunk.length;
  }
  out.end();
  await once(out, "finish");
  return { path: filePath, name: path.basename(filePath), size, md5Hex: md5.digest("hex") };
}

/** Requests from the page to our own app that carry a body bigger than a form post would (file bytes). */
export function watchBodiesSentToApp(page: Page): () => string[] {
  const offenders: string[] = [];
  page.on("request", (req: Request) => {
    if (!req.url().startsWith(urls.app)) return;
    const size = req.postDataBuffer()?.length ?? 0;
    const contentType = req.headers()["content-type"] ?? "";
    if (size > 8 * 1024 || contentType.includes("octet-stream")) offenders.push(`${req.method()} ${req.url()} (${size} bytes, ${contentType})`);
  });
  return () => offenders;
}

/** Goes to the documents page and stages one file. */
export async function stageFile(page: Page, file: GeneratedFile | string) {
  await page.goto("/documents");
  await page.getByLabel("Choose files").setInputFiles(typeof file === "string" ? file : file.path);
}

/** Every request the page sends to storage (the blob origin), by method. */
export function watchStorageRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (req) => {
    if (req.url().startsWith(urls.blob)) seen.push(req);
  });
  return seen;
}

export async function expectStored(found: { blob: { size: number | null; md5Hex: string | null } } | undefined, file: GeneratedFile) {
  expect(found, "document created upstream").toBeDefined();
  expect(found!.blob.size).toBe(file.size);
  expect(found!.blob.md5Hex).toBe(file.md5Hex);
}

/**
 * Records in the page each new aria-valuenow of the upload bar whose label starts with `labelPrefix` (not the
 * checksum bar), so no reading is missed however fast the upload ends; returns a reader of the readings.
 */
export async function recordUploadProgress(page: Page, labelPrefix = "Uploading"): Promise<() => Promise<number[]>> {
  await page.evaluate((prefix) => {
    const readings: number[] = [];
    (window as unknown as { uploadProgress: number[] }).uploadProgress = readings;
    new MutationObserver(() => {
      const value = document.querySelector(`[role="progressbar"][aria-label^="${prefix}"]`)?.getAttribute("aria-valuenow");
      if (value != null && readings.at(-1) !== Number(value)) readings.push(Number(value));
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow", "aria-label"] });
  }, labelPrefix);
  return () => page.evaluate(() => (window as unknown as { uploadProgress: number[] }).uploadProgress);
}

/**
 * The row of the document `itemId` in the page's list (the app's record). By id, not name: the record outlives the
 * sandbox's reset, so earlier runs' documents of the same name are listed too.
 */
export function listedDocument(page: Page, itemId: string) {
  return page.getByTestId("document-row").filter({ has: page.locator(`a[href="/documents/${itemId}"]`) });
}

/**
 * Waits until /documents shows what `check` expects of the app's record. The browser's upload reports reach the
 * record after the upload shows: sent at once, then from its outbox on each load of /documents and on the outbox's
 * own retries (2 s, 5 s, 15 s …); a document's own page delivers nothing. So each attempt loads /documents and the
 * next comes a while later with the page open: the wait ends with the outcome, or with the test's timeout, never
 * after a guess at how fast this machine is.
 */
export async function expectOnDocumentsList(page: Page, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.goto("/documents");
    await check();
  }).toPass({ intervals: [1_000, 2_000, 5_000] });
}

