import type { Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import type { sandboxAdmin } from "../fixtures/sandbox";
import { signIn, users, type User } from "../fixtures/users";

/** Two more devices, told apart in the list by their User-Agent. */
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_ON_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15";

type Admin = ReturnType<typeof sandboxAdmin>;

/** Signs in with no other session of the user left from earlier tests, so the list holds only this test's. */
async function signInAsOnlySession(page: Page, user: User) {
  await signIn(page, user);
  expect((await page.request.delete("/api/sessions")).status()).toBe(200);
  await signIn(page, user);
}

/** Signs `page` in and returns the refresh token the service issued for it (the browser never sees it). */
async function signInAndFindRefreshToken(page: Page, user: User, admin: Admin): Promise<string> {
  const before = new Set(await admin.issuedTokens());
  await signIn(page, user);
  const issued = (await admin.issuedTokens()).filter((t) => !before.has(t));
  const active = [];
  for (const token of issued) if ((await admin.refreshTokenStatus(token)).status === "active") active.push(token);
  expect(active, "one new refresh token").toHaveLength(1);
  return active[0]!;
}

const devices = (page: Page) => page.getByRole("list", { name: "Signed-in devices" }).getByRole("listitem");

async function expectSignedOut(page: Page) {
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Sign in to see your account" })).toBeVisible();
  await expect(page.getByTestId("signed-in-user")).toHaveCount(0);
}

async function expectSignedIn(page: Page) {
  await page.goto("/account");
  // Attached, not visible: the header hides the name at phone width.
  await expect(page.getByTestId("signed-in-user")).toBeAttached();
  await expect(page.getByTestId("sessions-panel")).toBeVisible();
}

test.describe("signed-in devices", () => {
  test("ending another browser's session signs out that one only, and revokes its refresh token", async ({ page, admin, newBrowser }) => {
    test.setTimeout(90_000);
    await signInAsOnlySession(page, users.alice);
    const firefox = await (await newBrowser({ userAgent: FIREFOX_ON_WINDOWS })).newPage();
    const firefoxRefreshToken = await signInAndFindRefreshToken(firefox, users.alice, admin);
    const safari = await (await newBrowser({ userAgent: SAFARI_ON_MAC })).newPage();
    await signIn(safari, users.alice);
    const revocationsBefore = (await admin.stats()).revocations.refresh_token;

    await page.goto("/account");
    await expect(devices(page)).toHaveCount(3);
    await expect(devices(page).first()).toContainText("This device");
    await expect(devices(page).filter({ hasText: "Firefox 133 on Windows 10" })).toContainText("Last active");
    await expect(page.getByTestId("only-this-device")).toHaveCount(0);
    await page.screenshot({ path: "screenshots/sessions-list.png", fullPage: true });

    await page.getByRole("button", { name: "Sign out Firefox 133 on Windows 10" }).click();
    const dialog = page.getByRole("dialog", { name: "Sign out Firefox 133 on Windows 10?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.screenshot({ path: "screenshots/sessions-confirm-one.png" });
    await dialog.getByRole("button", { name: "Sign out" }).click();

    await expect(page.getByRole("status").filter({ hasText: "Signed out Firefox 133 on Windows 10." })).toBeVisible();
    await expect(devices(page)).toHaveCount(2);
    await expect(devices(page).filter({ hasText: "Firefox" })).toHaveCount(0);
    await page.screenshot({ path: "screenshots/sessions-one-ended.png", fullPage: true });

    // Firefox's next request finds its session gone; Safari's is untouched; so is this one.
    await expectSignedOut(firefox);
    await expectSignedIn(safari);
    await expectSignedIn(page);
    await expect(devices(page)).toHaveCount(2);

    expect(await admin.refreshTokenStatus(firefoxRefreshToken)).toEqual({ status: "revoked", revokedAtEndpoint: true });
    expect((await admin.stats()).revocations.refresh_token).toBe(revocationsBefore + 1);
  });

  test("sign out everywhere ends every session, this one included, and lands on the start page", async ({ page, admin, newBrowser }) => {
    test.setTimeout(90_000);
    await signInAsOnlySession(page, users.alice);
    const firefox = await (await newBrowser({ userAgent: FIREFOX_ON_WINDOWS })).newPage();
    const firefoxRefreshToken = await signInAndFindRefreshToken(firefox, users.alice, admin);

    await page.goto("/account");
    await expect(devices(page)).toHaveCount(2);
    const everywhere = page.getByRole("button", { name: "Sign out everywhere" });

    // Escape backs out and ends nothing.
    await everywhere.click();
    const dialog = page.getByRole("dialog", { name: "Sign out everywhere?" });
    await expect(dialog).toContainText("all 2 devices, including this one");
    await page.screenshot({ path: "screenshots/sessions-confirm-everywhere.png" });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(everywhere).toBeFocused();
    await expect(devices(page)).toHaveCount(2);

    await everywhere.click();
    await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("E-signatures, inside your app");
    await expectSignedOut(page);
    await expectSignedOut(firefox);
    expect((await admin.refreshTokenStatus(firefoxRefreshToken)).revokedAtEndpoint).toBe(true);
  });

  test("with no other device, the list says so, at desktop and phone width", async ({ page }) => {
    await signInAsOnlySession(page, users.alice);
    await page.goto("/account");
    await expect(devices(page)).toHaveCount(1);
    await expect(page.getByTestId("only-this-device")).toHaveText("You're not signed in on any other device.");
    await page.getByTestId("sessions-panel").screenshot({ path: "screenshots/sessions-only-this-device.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("button", { name: "Sign out everywhere" })).toBeVisible();
    await page.screenshot({ path: "screenshots/sessions-mobile.png", fullPage: true });

    // By keyboard: Enter opens the confirmation, focus starts on Cancel, Enter there backs out.
    await page.getByRole("button", { name: "Sign out everywhere" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Sign out everywhere?" });
    await expect(dialog).toContainText("on this device");
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.screenshot({ path: "screenshots/sessions-confirm-mobile.png" });
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expectSignedIn(page);
  });

  test("a failure to end a session is shown on the list, and the session stays", async ({ page, newBrowser }) => {
    await signInAsOnlySession(page, users.alice);
    const firefox = await (await newBrowser({ userAgent: FIREFOX_ON_WINDOWS })).newPage();
    await signIn(firefox, users.alice);
    await page.goto("/account");
    // The store going away for this one call: what the route answers then (lib/errors.ts).
    await page.route("**/api/sessions/*", (route) =>
      route.fulfill({
        status: 503,
        json: { error: { code: "SESSION_STORE_UNAVAILABLE", message: "Sign-in is temporarily unavailable on our side. You are still signed in; please try again in a moment.", requestId: "e2e-1" } },
      }),
    );
    await page.getByRole("button", { name: "Sign out Firefox 133 on Windows 10" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByTestId("sessions-panel").getByRole("alert")).toContainText("We could not sign out Firefox 133 on Windows 10");
    await expect(page.getByTestId("sessions-panel").getByRole("alert")).toContainText("reference e2e-1");
    await expect(devices(page)).toHaveCount(2);
    await page.getByTestId("sessions-panel").screenshot({ path: "screenshots/sessions-error.png" });
    await page.unroute("**/api/sessions/*");
    await expectSignedIn(firefox);
  });

  test("another user's session cannot be ended, and cross-site requests are refused", async ({ page, newBrowser }) => {
    const bob = await (await newBrowser()).newPage();
    await signIn(bob, users.bob);
    const bobsId = ((await (await bob.request.get("/api/sessions")).json()) as { sessions: { id: string; current: boolean }[] }).sessions.find((s) => s.current)!.id;

    await signIn(page, users.alice);
    const notHers = await page.request.delete(`/api/sessions/${bobsId}`);
    expect(notHers.status()).toBe(404);
    expect((await notHers.json()).error.code).toBe("SESSION_NOT_FOUND");

    const crossSite = { "sec-fetch-site": "cross-site", origin: "https://evil.example" };
    const ownId = ((await (await page.request.get("/api/sessions")).json()) as { sessions: { id: string; current: boolean }[] }).sessions.find((s) => s.current)!.id;
    for (const path of ["/api/sessions", `/api/sessions/${ownId}`]) {
      const refused = await page.request.delete(path, { headers: crossSite });
      expect(refused.status()).toBe(403);
      expect((await refused.json()).error.code).toBe("CROSS_SITE_REQUEST");
    }
    await expectSignedIn(bob);
    await expectSignedIn(page);
  });
});
