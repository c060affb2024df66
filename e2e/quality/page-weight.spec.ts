import type { BrowserContext, Request } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { BARE_JS_KIB, JS_OVER_BARE_KIB, MEASURED_PAGES } from "../../bench/pages/pages";
import { LOCALE_COOKIE } from "../../lib/i18n/locales";

/**
 * Page weight (docs/page-weight.md): the JavaScript each page loads, gzip as transferred (body + response headers,
 * as Lighthouse counts it, `import()` chunks fetched during the load included), in English and Japanese, against
 * what a bare Next.js page of the same versions loads (`BARE_JS_KIB`, measured by `npm run bench:pages`, which says
 * when it no longer matches). Bytes, not timings: the same on a busy machine. The bench measures the timings.
 */

/**
 * Loads `path` in a fresh context (empty cache) and sums the scripts it fetched until the network went quiet. A first
 * visit also creates no IndexedDB database (the upload resume list and the report outbox look before they open one),
 * and prefetches no link (components/ui/link.tsx).
 */
async function scriptKiB(context: BrowserContext, path: string, locale: string) {
  const page = await context.newPage();
  const scripts: Request[] = [];
  let prefetches = 0;
  page.on("request", (req) => {
    if (req.resourceType() === "script") scripts.push(req);
    if (req.headers()["next-router-prefetch"]) prefetches++;
  });
  const response = await page.goto(path, { waitUntil: "networkidle" });
  expect(response?.status(), `${path} answered`).toBe(200);
  // The page is really in the language measured (the cookie took effect).
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  const sizes = await Promise.all(scripts.map((req) => req.sizes()));
  const databases = await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
  await page.close();
  return { count: scripts.length, kib: sizes.reduce((sum, s) => sum + s.responseBodySize + s.responseHeadersSize, 0) / 1024, databases, prefetches };
}

test(`every page loads at most ${JS_OVER_BARE_KIB} KiB more JavaScript than a bare Next.js page (gzip, as transferred) in English and Japanese`, async ({ page, context, newBrowser, baseURL }) => {
  test.setTimeout(120_000);
  await signIn(page, users.alice);
  const created = await page.evaluate(async () => {
    const res = await fetch("/api/documents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ docid: null, name: "page-weight.pdf", doctype: "contract" }),
    });
    return (await res.json()) as { itemId: string };
  });
  const sessionCookies = await context.cookies();

  const measured: string[] = [];
  for (const locale of ["en", "ja"]) {
    for (const target of MEASURED_PAGES.filter((p) => p.as !== "operator")) {
      // A fresh context per page: nothing cached from the page before, as a first visit.
      const fresh = await newBrowser();
      await fresh.addCookies([...(target.as === "alice" ? sessionCookies : []), { name: LOCALE_COOKIE, value: locale, url: baseURL! }]);
      const { count, kib, databases, prefetches } = await scriptKiB(fresh, target.path({ itemId: created.itemId, aliceEmail: users.alice.email, operatorDocumentPath: "" }), locale);
      expect.soft(databases, `${target.route} ${locale}: IndexedDB databases a first visit created`).toEqual([]);
      expect.soft(prefetches, `${target.route} ${locale}: link prefetches during the load`).toBe(0);
      const overBare = kib - BARE_JS_KIB;
      measured.push(`${target.route} ${locale}: ${kib.toFixed(1)} KiB in ${count} scripts (bare page ${overBare >= 0 ? "+" : ""}${overBare.toFixed(1)})`);
      expect(count, `${target.route} ${locale} loads scripts`).toBeGreaterThan(0);
      expect
        .soft(overBare, `${target.route} ${locale}: KiB of JavaScript (gzip, as transferred) beyond the bare page's ${BARE_JS_KIB}`)
        .toBeLessThanOrEqual(JS_OVER_BARE_KIB);
    }
  }
  console.log(`page weight:\n  ${measured.join("\n  ")}`);
});

test(`every operator page loads at most ${JS_OVER_BARE_KIB} KiB more JavaScript than a bare Next.js page in English and Japanese`, async ({ page, context, newBrowser, baseURL }) => {
  test.setTimeout(120_000);
  await signIn(page, users.oscar);
  const created = await page.evaluate(async () => {
    const res = await fetch("/api/documents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ docid: null, name: "operator-page-weight.pdf", doctype: "contract" }),
    });
    return (await res.json()) as { itemId: string };
  });
  // The operator's own document, by the address the operator pages give it.
  let documentPath = "";
  await expect(async () => {
    await page.goto(`/operator/search?q=${created.itemId}`);
    documentPath = new URL(await page.getByTestId("operator-document-row").getByRole("link").first().evaluate((a) => (a as HTMLAnchorElement).href)).pathname;
  }).toPass({ timeout: 20_000 });
  // The operator pages of bench/pages/pages.ts; the route is printed, not the path (no email or key in the output).
  const params = { itemId: created.itemId, aliceEmail: users.alice.email, operatorDocumentPath: documentPath };
  const pages = MEASURED_PAGES.filter((p) => p.as === "operator").map((p) => [p.route, p.path(params)] as const);
  const sessionCookies = await context.cookies();

  const measured: string[] = [];
  for (const locale of ["en", "ja"]) {
    for (const [route, path] of pages) {
      const fresh = await newBrowser();
      await fresh.addCookies([...sessionCookies, { name: LOCALE_COOKIE, value: locale, url: baseURL! }]);
      const { count, kib, databases, prefetches } = await scriptKiB(fresh, path, locale);
      expect.soft(databases, `${route} ${locale}: IndexedDB databases a first visit created`).toEqual([]);
      expect.soft(prefetches, `${route} ${locale}: link prefetches during the load`).toBe(0);
      const overBare = kib - BARE_JS_KIB;
      measured.push(`${route} ${locale}: ${kib.toFixed(1)} KiB in ${count} scripts (bare page ${overBare >= 0 ? "+" : ""}${overBare.toFixed(1)})`);
      expect(count, `${route} ${locale} loads scripts`).toBeGreaterThan(0);
      expect
        .soft(overBare, `${route} ${locale}: KiB of JavaScript (gzip, as transferred) beyond the bare page's ${BARE_JS_KIB}`)
        .toBeLessThanOrEqual(JS_OVER_BARE_KIB);
    }
  }
  console.log(`operator page weight:\n  ${measured.join("\n  ")}`);
});
