import type { Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";

/**
 * First paint = the server's HTML before any script runs, so these pages are loaded with JavaScript off.
 * Screenshots at desktop and phone width go to screenshots/first-paint-*.png for a person to look at.
 */
test.use({ javaScriptEnabled: false });

const widths = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const;

async function capture(page: Page, name: string) {
  for (const [label, size] of Object.entries(widths)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `screenshots/first-paint-${name}-${label}.png`, fullPage: true });
  }
}

test("signed-out pages render their content on the server", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("E-signatures, inside your app");
  await capture(page, "landing");
  await page.goto("/auth/error?error=AccessDenied");
  await expect(page.getByTestId("auth-error")).toBeVisible();
  await capture(page, "auth-error");
});

test("the account record and the documents form are in the first paint, not a skeleton", async ({ page }) => {
  // The sign-in forms work without JavaScript too (server action, then the sandbox's plain forms).
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
  await expect(page.getByTestId("account-loading")).toHaveCount(0);
  await capture(page, "account");
  await page.goto("/documents");
  await expect(page.getByRole("form", { name: "New document" })).toBeVisible();
  await capture(page, "documents");
});

test("the no-customer state is in the first paint too", async ({ page }) => {
  await signIn(page, users.bob);
  await expect(page.getByTestId("customer-not-found")).toBeVisible();
  await expect(page.getByTestId("account-loading")).toHaveCount(0);
  await capture(page, "account-customer-not-found");
});
