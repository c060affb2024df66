import type { BrowserContext, Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import type { SandboxStats } from "../fixtures/sandbox";
import { fillSandboxSignIn, signIn, users } from "../fixtures/users";
import { urls, ports } from "../ports";
import { startApp, type RunningApp } from "../../bench/load/app-server";
import { sessionStoreDir } from "../session-store-scan";

const EXPIRED_TITLE = "This sign-in link has expired or was already used";
const ADMIN_TEXT = "contact the app's administrator";

/** How often the app restarted a sign-in on its own (each restart goes through /auth/restart). */
function countRestarts(context: BrowserContext) {
  const seen = { restarts: 0 };
  context.on("request", (req) => {
    if (new URL(req.url()).pathname === "/auth/restart") seen.restarts += 1;
  });
  return seen;
}

async function sessionUser(page: Page): Promise<string | null> {
  const session = (await (await page.request.get("/api/auth/session")).json()) as { user?: { email?: string } } | null;
  return session?.user?.email ?? null;
}

async function startSignInFromLanding(page: Page) {
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await expect(page.getByLabel("Email")).toBeVisible();
}

/** Clicks the service's Allow in `tab` and waits until that callback sends it through the app's automatic restart. */
const allowAndExpectRestart = (tab: Page) =>
  Promise.all([tab.waitForRequest((req) => new URL(req.url()).pathname === "/auth/restart"), tab.getByRole("button", { name: "Allow" }).click()]);

/** `tab` ended on the account page, signed in as `user`, with the record shown and no error text. */
async function expectSignedInOnAccount(tab: Page, user: (typeof users)["alice"]) {
  await tab.waitForURL("**/account");
  await expect(tab.getByTestId("signed-in-user")).toHaveText(user.name);
  await expect(tab.getByTestId("account-record")).toContainText(user.email);
  await expect(tab.getByTestId("auth-error")).toHaveCount(0);
}

/** Since `before`: one code redeemed, none twice, no grant revoked — and the session still works with the service. */
async function expectOneCleanSignIn(tab: Page, before: SandboxStats, after: SandboxStats) {
  expect(after.refreshReuse - before.refreshReuse).toBe(0);
  expect((after.tokenErrors["400"] ?? 0) - (before.tokenErrors["400"] ?? 0)).toBe(0);
  expect(after.grants.authorization_code - before.grants.authorization_code).toBe(1);
  expect((await tab.request.get("/api/account")).status()).toBe(200);
}

test.describe("sign-in as people do it", () => {
  test("two tabs: the tab started first and finished first restarts once, and both end signed in", async ({ page, context, admin }) => {
    const seen = countRestarts(context);
    const before = await admin.stats();
    const second = await context.newPage();
    await startSignInFromLanding(page);
    await startSignInFromLanding(second);

    // The first tab's callback carries its own state, but the browser now holds the second tab's checks.
    await fillSandboxSignIn(page, users.alice);
    await page.getByRole("button", { name: "Allow" }).click();
    // Restarted once: the service still has alice's session, so only its consent page comes back.
    await page.getByRole("button", { name: "Allow" }).click();
    await expectSignedInOnAccount(page, users.alice);
    expect(seen.restarts).toBe(1);

    await fillSandboxSignIn(second, users.alice);
    await second.getByRole("button", { name: "Allow" }).click();
    await expectSignedInOnAccount(second, users.alice);
    expect(seen.restarts).toBe(1);
    await expectOneCleanSignIn(page, before, await admin.stats());
  });

  test("two tabs: the second tab finishes while the first tab's restart is under way, and both end signed in", async ({ page, context, admin }) => {
    const seen = countRestarts(context);
    const before = await admin.stats();
    const second = await context.newPage();
    await startSignInFromLanding(page);
    await startSignInFromLanding(second);

    // The first tab's callback fails (the browser holds the second tab's checks) and restarts; its
    // restarted flow now owns the checks and waits at the service's consent page.
    await fillSandboxSignIn(page, users.alice);
    await allowAndExpectRestart(page);
    await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
    expect(seen.restarts).toBe(1);

    // The second tab finishes now: its own checks were overwritten by the first tab's restart. It is a
    // different flow, so it gets its own restart rather than the expired-link message.
    await fillSandboxSignIn(second, users.alice);
    await allowAndExpectRestart(second);
    await second.getByRole("button", { name: "Allow" }).click();
    await expectSignedInOnAccount(second, users.alice);
    expect(seen.restarts).toBe(2);

    // The first tab's restarted callback no longer matches the browser's checks, but a session exists.
    await page.getByRole("button", { name: "Allow" }).click();
    await expectSignedInOnAccount(page, users.alice);
    expect(seen.restarts).toBe(2);
    expect(await sessionUser(page)).toBe(users.alice.email);
    await expectOneCleanSignIn(page, before, await admin.stats());
  });

  test("two tabs: the first tab's restarted flow finishes while the second tab's restart is under way, and both end signed in", async ({ page, context, admin }) => {
    const seen = countRestarts(context);
    const before = await admin.stats();
    const second = await context.newPage();
    await startSignInFromLanding(page);
    await startSignInFromLanding(second);

    // Both tabs' first callbacks fail and restart; the second tab's restart now owns the checks.
    await fillSandboxSignIn(page, users.alice);
    await allowAndExpectRestart(page);
    await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
    await fillSandboxSignIn(second, users.alice);
    await allowAndExpectRestart(second);
    await expect(second.getByRole("button", { name: "Allow" })).toBeVisible();
    expect(seen.restarts).toBe(2);

    // The first tab's restarted flow lost its checks to the second tab's restart, not to a fault of
    // its own: it restarts once more (its first restart) and signs in.
    await allowAndExpectRestart(page);
    await page.getByRole("button", { name: "Allow" }).click();
    await expectSignedInOnAccount(page, users.alice);
    expect(seen.restarts).toBe(3);

    // The second tab's restarted callback no longer matches the browser's checks, but a session exists.
    await second.getByRole("button", { name: "Allow" }).click();
    await expectSignedInOnAccount(second, users.alice);
    expect(seen.restarts).toBe(3);
    expect(await sessionUser(second)).toBe(users.alice.email);
    await expectOneCleanSignIn(second, before, await admin.stats());
  });

  test("re-opening the used callback URL while signed in lands on the app without an error", async ({ page, context }) => {
    const seen = countRestarts(context);
    let callbackUrl = "";
    page.on("request", (req) => {
      if (new URL(req.url()).pathname === "/api/auth/callback/esign") callbackUrl = req.url();
    });
    await signIn(page, users.alice);
    expect(callbackUrl).toContain("code=");

    await page.goto(callbackUrl);
    await page.waitForURL("**/account");
    await expect(page.getByTestId("signed-in-user")).toHaveText(users.alice.name);
    await expect(page.getByTestId("account-record")).toContainText(users.alice.email);
    await expect(page.getByTestId("auth-error")).toHaveCount(0);
    await expect(page.getByText(/expired|not available|administrator/i)).toHaveCount(0);
    expect(await sessionUser(page)).toBe(users.alice.email);
    expect(seen.restarts).toBe(0);
  });

  test("a stale callback while signed out says the link expired, and Sign in again works", async ({ page, context }) => {
    const seen = countRestarts(context);
    await page.goto("/api/auth/callback/esign?code=matches-nothing&state=matches-nothing");
    await page.waitForURL("**/auth/error?error=LinkExpired");
    const alert = page.getByTestId("auth-error");
    await expect(alert).toContainText(EXPIRED_TITLE);
    await expect(alert).toContainText("Sign in again");
    await expect(page.getByText(ADMIN_TEXT)).toHaveCount(0);
    expect(await sessionUser(page)).toBeNull();
    expect(seen.restarts).toBe(0);

    await page.getByRole("main").getByRole("button", { name: "Sign in again" }).click();
    await fillSandboxSignIn(page, users.alice);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL("**/account");
    expect(await sessionUser(page)).toBe(users.alice.email);
  });

  test("a callback failing its check twice in a row restarts once, then ends on the message", async ({ page, context }) => {
    const seen = countRestarts(context);
    // Each time the service is about to return, this browser's state cookie gets garbled (as in the
    // "value could not be parsed" reports): the callback cannot be matched to the sign-in it started.
    const garbleStateCookie = async () => {
      const state = (await context.cookies(urls.app)).find((c) => c.name === "authjs.state");
      expect(state, "a sign-in in progress has a state cookie").toBeDefined();
      await context.addCookies([{ ...state!, value: "garbled" }]);
    };
    await startSignInFromLanding(page);
    await fillSandboxSignIn(page, users.alice);
    await garbleStateCookie();
    await page.getByRole("button", { name: "Allow" }).click();
    // Restarted once: the service still has alice's session and asks for consent again.
    await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
    expect(seen.restarts).toBe(1);
    await garbleStateCookie();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL("**/auth/error?error=LinkExpired");
    await expect(page.getByTestId("auth-error")).toContainText(EXPIRED_TITLE);
    await expect(page.getByText(ADMIN_TEXT)).toHaveCount(0);
    expect(seen.restarts).toBe(1);
    expect(await sessionUser(page)).toBeNull();
  });

  test("sign out as alice, Sign in: the service asks for credentials; bob then sees only his data", async ({ page }) => {
    await signIn(page, users.alice);
    await expect(page.getByTestId("account-record")).toContainText("alice@example.com");

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    // The service offers to end its session too; staying signed in there must not matter.
    await expect(page.getByRole("heading", { name: "Sign out of the e-signature service?" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(users.alice.name);
    await page.getByRole("button", { name: "No, stay signed in" }).click();
    await page.waitForURL((url) => url.origin === urls.app && url.pathname === "/");
    expect(await sessionUser(page)).toBeNull();

    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    // prompt=login: the sign-in form, naming who the service's session belongs to, not alice's consent.
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toContainText(users.alice.name);
    await expect(page.getByRole("button", { name: "Allow" })).toHaveCount(0);

    await fillSandboxSignIn(page, users.bob);
    const firstPaint = page.waitForResponse((res) => new URL(res.url()).pathname === "/account" && res.request().resourceType() === "document");
    await page.getByRole("button", { name: "Allow" }).click();
    const html = await (await firstPaint).text();
    expect(html).toContain(users.bob.name);
    expect(html).not.toMatch(/alice|Example Trading/i);
    await expect(page.getByTestId("customer-not-found")).toBeVisible();
    await expect(page.getByTestId("signed-in-user")).toHaveText(users.bob.name);
    await expect(page.locator("body")).not.toContainText(/alice|Example Trading/i);

    await page.reload();
    await expect(page.getByTestId("customer-not-found")).toBeVisible();
    await expect(page.getByTestId("signed-in-user")).toHaveText(users.bob.name);
    await expect(page.locator("body")).not.toContainText(/alice|Example Trading/i);
    expect(await sessionUser(page)).toBe(users.bob.email);
  });

  test("sign out ends the service's session too when it offers RP-initiated logout", async ({ page }) => {
    await signIn(page, users.alice);
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await page.waitForURL((url) => url.origin === urls.app && url.pathname === "/");
    expect(await sessionUser(page)).toBeNull();

    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    await expect(page.getByLabel("Email")).toBeVisible();
    // The service's session is gone: nobody is signed in there any more.
    await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
  });

  test("Use another account asks the service for credentials even while it has a session", async ({ page, context }) => {
    await signIn(page, users.alice);
    // Leave the service's session in place and drop only the app's cookies: a signed-out app, alice still at the service.
    const kept = (await context.cookies()).filter((c) => !/^(authjs\.|esign\.)/.test(c.name));
    await context.clearCookies();
    await context.addCookies(kept);
    await page.goto("/");
    await page.getByRole("main").getByRole("button", { name: "Use another account" }).click();
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toContainText(users.alice.name);
    await fillSandboxSignIn(page, users.bob);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL("**/account");
    await expect(page.getByTestId("signed-in-user")).toHaveText(users.bob.name);
  });
});

test.describe("a real configuration error", () => {
  let misconfigured: RunningApp | undefined;

  test.beforeAll(async () => {
    misconfigured = await startApp(ports.misconfiguredApp, {
      ESIGN_USE_SANDBOX: "true",
      ESIGN_AUTH_URL: urls.auth,
      ESIGN_API_URL: urls.api,
      ESIGN_STORAGE_ORIGINS: urls.blob,
      ESIGN_CLIENT_SECRET: "not-the-registered-secret",
      AUTH_URL: urls.misconfiguredApp,
      AUTH_SECRET: "e2e-only-misconfigured-app-secret-0123456789abcdef",
      SESSION_STORE_DIR: sessionStoreDir(ports.misconfiguredApp),
    });
  });

  test.afterAll(async () => {
    await misconfigured?.stop();
  });

  test("an app with a wrong client secret still shows the administrator message", async ({ page, admin }) => {
    const before = await admin.stats();
    await page.goto(`${urls.misconfiguredApp}/`);
    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    await fillSandboxSignIn(page, users.alice);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${urls.misconfiguredApp}/auth/error?error=Configuration`);
    await expect(page.getByTestId("auth-error")).toContainText("Sign-in is not available right now");
    await expect(page.getByTestId("auth-error")).toContainText(ADMIN_TEXT);
    await expect(page.getByText(EXPIRED_TITLE)).toHaveCount(0);
    const after = await admin.stats();
    expect((after.tokenErrors["401"] ?? 0) - (before.tokenErrors["401"] ?? 0)).toBe(1);
  });
});
