import type { BrowserContext } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { urls } from "../ports";

// A page on another site, served by the test: it links to the app's restart route.
const CROSS_SITE = "http://cross-site.test";

const cookieJar = async (context: BrowserContext) =>
  (await context.cookies(urls.app)).map(({ name, value }) => `${name}=${value}`).sort();

test.describe("/auth/restart from another site", () => {
  test("a cross-site link starts no flow and changes no cookie: it lands on the landing page", async ({ page, context }) => {
    // A sign-in in progress: Auth.js's check cookies are set, the service's sign-in page is showing.
    await page.goto("/");
    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    await expect(page.getByLabel("Email")).toBeVisible();
    const before = await cookieJar(context);
    expect(before.some((c) => /authjs\.(state|pkce\.code_verifier)=/.test(c))).toBe(true);

    await page.route(`${CROSS_SITE}/**`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><html lang="en"><title>Elsewhere</title><a href="${urls.app}/auth/restart?callbackUrl=%2Faccount">Win a prize</a></html>`,
      }),
    );
    await page.goto(`${CROSS_SITE}/`);
    const authorizeRequests: string[] = [];
    page.on("request", (req) => {
      if (new URL(req.url()).pathname === "/connect/authorize") authorizeRequests.push(req.url());
    });
    await Promise.all([
      page.waitForRequest((req) => new URL(req.url()).pathname === "/auth/restart"),
      page.getByRole("link", { name: "Win a prize" }).click(),
    ]);
    await page.waitForURL(`${urls.app}/`);
    await expect(page.getByRole("main").getByRole("button", { name: "Sign in with eSign" })).toBeVisible();

    expect(authorizeRequests).toEqual([]);
    expect(await cookieJar(context)).toEqual(before);
  });

  test("answers a request without same-origin evidence with a redirect to / and no Set-Cookie", async ({ request }) => {
    const cases: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "none" }, { referer: "https://elsewhere.example/page" }, {}];
    for (const headers of cases) {
      const res = await request.get("/auth/restart?callbackUrl=%2Faccount", { headers, maxRedirects: 0 });
      expect(res.status(), JSON.stringify(headers)).toBe(307);
      expect(res.headers().location).toBe(`${urls.app}/`);
      expect(res.headers()["set-cookie"]).toBeUndefined();
    }
  });
});
