import { encode } from "next-auth/jwt";
import type { BrowserContext, Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { refreshesSince } from "../fixtures/refresh-spacing";
import { signIn, users, waitForExpiry } from "../fixtures/users";
import { ACCESS_TOKEN_TTL_SECONDS, urls } from "../ports";
import { APP_SECRET } from "../secrets";

/**
 * Against an IdentityServer-style auth server (the sandbox's `identityserver` style): JWT access tokens of
 * enterprise size, a fresh id_token on every refresh, signing keys that rotate. The session's tokens live in the
 * server-side store, so the browser's cookies stay small whatever the tokens weigh.
 */
const TABS = 4;
// Two expiries: the second refresh redeems a refresh token the first one rotated (rotation.spec.ts goes on to three).
const EXPIRIES = 2;
const MAX_SET_COOKIE_BYTES = 4096;
const MAX_COOKIE_HEADER_BYTES = 2048;

/**
 * The app's own cookies (Auth.js's and ours). Cookies are per host, not per port: on localhost the browser also
 * sends the app the sandbox auth server's cookies, which a real deployment on its own host never would.
 */
const isAppCookie = (name: string) => /^(__Secure-|__Host-)?(authjs\.|esign\.)/.test(name);

/** Every Set-Cookie line the app sent, and the app's cookies in every Cookie header the browser sent it, in bytes. */
function watchCookies(context: BrowserContext) {
  const setCookies: number[] = [];
  const cookieHeaders: number[] = [];
  let largest = { bytes: 0, names: "" };
  const pending: Promise<void>[] = [];
  context.on("request", (req) => {
    if (!req.url().startsWith(urls.app)) return;
    pending.push(
      req.allHeaders().then((headers) => {
        const ours = (headers.cookie ?? "").split("; ").filter((pair) => isAppCookie(pair.split("=")[0]!));
        if (ours.length === 0) return;
        const bytes = Buffer.byteLength(ours.join("; "));
        cookieHeaders.push(bytes);
        if (bytes > largest.bytes) largest = { bytes, names: ours.map((p) => `${p.split("=")[0]} ${Buffer.byteLength(p)} B`).join(", ") };
      }),
    );
  });
  context.on("response", (res) => {
    if (!res.url().startsWith(urls.app)) return;
    pending.push(
      res.headersArray().then((headers) => {
        for (const h of headers) if (h.name.toLowerCase() === "set-cookie") setCookies.push(Buffer.byteLength(h.value.split(";")[0]!));
      }),
    );
  });
  return { setCookies, cookieHeaders, largest: () => largest.names, settled: () => Promise.all(pending) };
}

test.describe("against an IdentityServer-style auth server", () => {
  // Independent tests (each sets its style, the afterEach restores it), long for their expiries: spread over the workers.
  test.describe.configure({ mode: "parallel" });
  test.afterEach(async ({ admin }) => {
    await admin.setIdentityStyle({ style: "standard" });
  });

  // The smallest and the largest: the cookies do not grow with the token, so sizes between them add nothing.
  for (const accessTokenBytes of [1024, 8192]) {
    test(`${accessTokenBytes / 1024} KiB JWT access tokens: ${TABS} tabs stay signed in through ${EXPIRIES} expiries, one refresh each, small cookies`, async ({ page, context, admin }) => {
      test.setTimeout(150_000);
      await admin.setIdentityStyle({ style: "identityserver", accessTokenBytes });
      const cookies = watchCookies(context);
      const since = Date.now();
      await signIn(page, users.alice);

      // The service really issued JWT access tokens of about that size.
      const jwts = (await admin.issuedTokens()).filter((t) => t.startsWith("eyJ") && t.split(".").length === 3);
      expect(jwts.some((t) => Math.abs(t.length - accessTokenBytes) <= accessTokenBytes * 0.05), `an access token of ≈ ${accessTokenBytes} bytes`).toBe(true);

      const tabs: Page[] = [page, ...(await Promise.all(Array.from({ length: TABS - 1 }, () => context.newPage())))];
      await Promise.all(tabs.map((tab) => tab.goto("/account")));
      const before = await admin.stats();
      for (let expiry = 1; expiry <= EXPIRIES; expiry++) {
        await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
        // Every tab at once: a page render and an API call each.
        await Promise.all(tabs.map((tab) => tab.reload()));
        const statuses = await Promise.all(tabs.map(async (tab) => (await tab.request.get("/api/account")).status()));
        expect(statuses, `API answers after expiry ${expiry}`).toEqual(Array(TABS).fill(200));
        for (const tab of tabs) await expect(tab.getByTestId("account-record")).toContainText(users.alice.email);
        const stats = await admin.stats();
        // A refresh for each expiry, and never two for one token lifetime, however long four tabs' renders took.
        expect(refreshesSince(stats, since, ACCESS_TOKEN_TTL_SECONDS), `refreshes after expiry ${expiry}`).toBeGreaterThanOrEqual(expiry);
        expect(stats.refreshReuse).toBe(before.refreshReuse);
      }

      await cookies.settled();
      expect(cookies.setCookies.length).toBeGreaterThan(0);
      expect(Math.max(...cookies.setCookies), "largest Set-Cookie (bytes)").toBeLessThanOrEqual(MAX_SET_COOKIE_BYTES);
      expect(Math.max(...cookies.cookieHeaders), "largest Cookie header, the app's cookies (bytes)").toBeLessThan(MAX_COOKIE_HEADER_BYTES);
      console.log(
        `${accessTokenBytes} B access tokens: ${TABS} tabs × ${EXPIRIES} expiries signed in, largest Set-Cookie ${Math.max(...cookies.setCookies)} B, largest Cookie header ${Math.max(...cookies.cookieHeaders)} B (${cookies.largest()})`,
      );
    });
  }

  test("the signing key rotated while the JWKS endpoint fails: the refresh in between keeps the user signed in, no reuse after recovery", async ({ page, admin }) => {
    test.setTimeout(150_000);
    await admin.setIdentityStyle({ style: "identityserver", accessTokenBytes: 1024 });
    const since = Date.now();
    await signIn(page, users.alice);
    const keysBefore = await admin.signingKeys();
    const rotated = await admin.rotateSigningKey();
    expect(rotated.signingKid).not.toBe(keysBefore.signingKid);
    // The next two key fetches fail: refreshed id_tokens are signed by a key the app has never seen. (jose asks for
    // the keys again on an unknown kid only 30 s after its last fetch, so the failures land on a later refresh.)
    await admin.addJwksFault({ status: 503, count: 2 });
    const before = await admin.stats();

    await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
    await page.reload();
    await expect(page.getByTestId("account-record")).toContainText(users.alice.email);
    expect((await page.request.get("/api/account")).status()).toBe(200);
    expect(refreshesSince(await admin.stats(), since, ACCESS_TOKEN_TTL_SECONDS), "a refresh with the new key unknown").toBeGreaterThanOrEqual(1);

    // The key fetches fail, then succeed again; every refresh keeps the user signed in.
    for (let expiry = 2; expiry <= 5; expiry++) {
      await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
      await page.reload();
      await expect(page.getByTestId("account-record")).toContainText(users.alice.email);
    }
    const after = await admin.stats();
    expect(after.jwksRequests - before.jwksRequests, "both failing key fetches and a good one").toBeGreaterThanOrEqual(3);
    expect(refreshesSince(after, since, ACCESS_TOKEN_TTL_SECONDS), "a refresh for each of 5 expiries, one per token lifetime").toBeGreaterThanOrEqual(5);
    expect(after.refreshReuse, "no refresh token was redeemed twice").toBe(before.refreshReuse);
    await expect(page.getByText("Your session has expired")).toHaveCount(0);
  });
});

test("a session cookie from before server-side sessions (tokens inside) gets a clean Sign in again, never an error page", async ({ page, context }) => {
  const now = Math.floor(Date.now() / 1000);
  const legacy = await encode({
    secret: APP_SECRET,
    salt: "authjs.session-token",
    token: { name: users.alice.name, email: users.alice.email, accessToken: "an-old-access-token", refreshToken: "an-old-refresh-token", accessTokenExpiresAt: now + 3600 },
  });
  await context.addCookies([{ name: "authjs.session-token", value: legacy, url: urls.app, httpOnly: true, sameSite: "Lax" }]);
  const res = await page.goto("/account");
  expect(res?.status()).toBe(200);
  await expect(page.getByText("Your session has expired").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in again" }).first()).toBeVisible();
  const api = await page.request.get("/api/account");
  expect([api.status(), (await api.json()).error.code]).toEqual([401, "SESSION_EXPIRED"]);
});
