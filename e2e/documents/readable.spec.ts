import { devices, type BrowserContext } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { expectNoAxeViolations } from "../fixtures/axe";
import { signIn, users } from "../fixtures/users";
import { MiB, expectOnDocumentsList, listedDocument, stageFile, writeRandomFile } from "./support";

/**
 * What a person sees: the upload's progress where they are looking, no drag wording on a touch screen, and a
 * document's history they can read (times to the second in their zone and language, facts in words, technical
 * details folded). Screenshots of each state land in the test's output folder for a person to look at.
 */

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

const TEXT = {
  en: { choose: "Choose files", upload: "Upload", cancel: /^Cancel upload of /, left: "left", underWay: "under way", device: /^\s*(·\s+)?\S.* on \S/ },
  ja: { choose: "ファイルを選択", upload: "アップロード", cancel: /のアップロードをキャンセル$/, left: "残り", underWay: "アップロード中です", device: /^\s*(·\s+)?\S.*の \S/ },
} as const;

/** The language the app answers in from now on: the language menu's cookie, as a person's choice would set it. */
async function useLanguage(context: BrowserContext, locale: "en" | "ja") {
  const { baseURL } = test.info().project.use;
  await context.addCookies([{ name: "locale", value: locale, url: baseURL! }]);
}

test.describe("what a person sees of an upload and of a document's history", () => {
  test("the active upload is in view after Upload, at 1280×800 and 390×844, in English and Japanese; the form says it is under way", async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    const file = await writeRandomFile(testInfo.outputPath("In view.pdf"), 24 * MiB);
    await signIn(page, users.alice);
    // Slow enough that the upload is still running when it is looked at, however busy the machine.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: MiB });

    for (const locale of ["en", "ja"] as const) {
      const text = TEXT[locale];
      await useLanguage(page.context(), locale);
      for (const [label, size] of Object.entries(SIZES)) {
        await page.setViewportSize(size);
        await page.goto("/documents");
        await page.getByLabel(text.choose).setInputFiles(file.path);
        await page.getByRole("button", { name: text.upload, exact: true }).click();
        const row = page.getByTestId("upload-item").filter({ has: page.getByRole("progressbar") });
        await expect(row.getByTestId("upload-progress-text")).toContainText(text.left, { timeout: 60_000 });
        // Bar, percentage · bytes · speed · time left, and Cancel: all on screen, without the user scrolling.
        await expect(row.getByRole("progressbar")).toBeInViewport({ ratio: 1 });
        await expect(row.getByTestId("upload-progress-text")).toBeInViewport({ ratio: 1 });
        await expect(row.getByRole("button", { name: text.cancel })).toBeInViewport({ ratio: 1 });
        // Japanese and English percent style: "24%", no space.
        await expect(row.getByTestId("upload-progress-text")).toHaveText(/^\d{1,3}% · /);
        // The form no longer says "Choose a file to start" while the upload runs.
        await expect(page.getByTestId("form-hint")).toContainText(text.underWay);
        await expectNoAxeViolations(page, `documents during an upload (${locale}, ${label})`);
        await page.screenshot({ path: testInfo.outputPath(`uploading-${locale}-${label}.png`) });
        await row.getByRole("button", { name: text.cancel }).click();
        await expect(page.getByTestId("upload-cancelled")).toBeVisible();
      }
    }
  });

  test("says \"Drag files here\" only where there is a fine pointer to drag with", async ({ page, newBrowser }) => {
    await signIn(page, users.alice);
    await page.goto("/documents");
    await expect(page.getByTestId("drop-here")).toBeVisible();

    const phone = await (await newBrowser({ ...devices["Pixel 7"] })).newPage();
    await signIn(phone, users.alice);
    await phone.goto("/documents");
    expect(await phone.evaluate(() => window.matchMedia("(pointer: coarse)").matches), "the phone's pointer is coarse").toBe(true);
    await expect(phone.getByText("Choose files", { exact: true })).toBeVisible();
    // In the HTML (server and browser render the same page), but never shown.
    await expect(phone.getByTestId("drop-here")).toBeAttached();
    await expect(phone.getByTestId("drop-here")).toBeHidden();
    await expect(phone.getByText(/drag/i).filter({ visible: true })).toHaveCount(0);
  });

  test("a document's history: seconds, the reader's zone and language, facts in words, technical details folded and opened by keyboard, the MD5 on one line", async ({ newBrowser }, testInfo) => {
    test.setTimeout(120_000);
    const run = Date.now().toString(36);
    const file = await writeRandomFile(testInfo.outputPath(`history-${run}.pdf`), 300 * 1024);
    // Tokyo: a zone whose times differ from UTC's, so a page written in UTC would show.
    const context = await newBrowser({ timezoneId: "Asia/Tokyo" });
    const page = await context.newPage();
    await signIn(page, users.alice);
    await stageFile(page, file);
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 30_000 });
    const itemId = (await page.getByTestId("upload-success").locator('[data-field="Item ID"]').textContent())!.trim();

    const trail = page.getByTestId("audit-trail");
    const uploaded = trail.locator('[data-event="uploaded"]');
    // The browser's report of the upload reaches the record a moment after the success shows.
    await expectOnDocumentsList(page, () => expect(listedDocument(page, itemId).locator("[data-status]")).toHaveAttribute("data-status", "uploaded", { timeout: 2_000 }));
    await page.goto(`/documents/${itemId}`);
    await expect(uploaded).toBeVisible();

    for (const locale of ["en", "ja"] as const) {
      await useLanguage(context, locale);
      await page.setViewportSize(SIZES.desktop);
      await page.reload();
      // Every event's time: to the second, in Tokyo time, in the page's language, as Intl writes it.
      const format = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "medium", timeZone: "Asia/Tokyo" });
      const times = trail.locator("time");
      expect(await times.count()).toBeGreaterThanOrEqual(3);
      for (const time of await times.all()) {
        const iso = await time.getAttribute("datetime");
        await expect(time).toHaveText(format.format(new Date(iso!)));
        await expect(time).toHaveText(/\d:\d\d:\d\d/);
      }
      // The device named in the page's language ("Linux の Chrome 131").
      await expect(uploaded.getByTestId("event-device")).toHaveText(TEXT[locale].device);
      // Facts in words: the size, with the bytes in full.
      await expect(uploaded.getByTestId("event-facts")).toContainText(`${file.size.toLocaleString(locale)}`);

      // Technical details: closed at first; the summary opens them from the keyboard.
      const details = uploaded.getByTestId("technical-details");
      const md5 = details.locator('[data-key="md5"]');
      await expect(details).toHaveJSProperty("open", false);
      await expect(md5).toBeHidden();
      await details.locator("summary").focus();
      await page.keyboard.press("Enter");
      await expect(details).toHaveJSProperty("open", true);
      await expect(md5).toHaveText(file.md5Hex);
      await expect(trail.locator('[data-key="requestId"]').first()).toBeAttached();
      await expectNoAxeViolations(page, `a document's page, technical details open (${locale})`);
      await page.screenshot({ path: testInfo.outputPath(`history-${locale}-desktop.png`), fullPage: true });

      // On a 390 px phone the MD5 stays on one line: not broken mid-string.
      await page.setViewportSize(SIZES.phone);
      for (const hash of [md5, page.getByTestId("document-record-facts").locator('[data-field="MD5"] span')]) {
        const { height, lineHeight } = await hash.evaluate((el) => ({ height: el.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(el).lineHeight) }));
        expect(height, "the MD5 takes one line").toBeLessThanOrEqual(lineHeight * 1.2);
        await expect(hash).toHaveText(file.md5Hex);
      }
      await page.screenshot({ path: testInfo.outputPath(`history-${locale}-phone.png`), fullPage: true });
      await page.keyboard.press("Enter");
      await expect(details).toHaveJSProperty("open", false);
    }
  });
});
