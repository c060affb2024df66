import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };

/** The header's height, and whether `items` share its one row (their vertical centres within a few pixels). */
async function headerRow(page: Page, items: ReturnType<Page["locator"]>[]) {
  const header = await page.getByRole("banner").boundingBox();
  const centres = await Promise.all(items.map(async (item) => {
    const box = await item.boundingBox();
    return box ? box.y + box.height / 2 : Number.NaN;
  }));
  return { height: header?.height ?? Number.NaN, spread: Math.max(...centres) - Math.min(...centres) };
}

test.describe("site header", () => {
  test("on a 390 px phone it is one row, with navigation, name, language and sign-out behind a Menu that works by keyboard", async ({ page }) => {
    await page.setViewportSize(phone);
    await signIn(page, users.alice);
    const menu = page.getByRole("banner").getByRole("button", { name: "Menu" });
    const nav = page.getByRole("navigation", { name: "Main" });
    const { height, spread } = await headerRow(page, [page.getByTestId("brand-name"), menu]);
    expect(height, "header height at 390 px").toBeLessThanOrEqual(64);
    expect(spread, "brand and Menu on one row").toBeLessThanOrEqual(4);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav).toBeHidden();
    await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeHidden();

    // Open by keyboard: the panel follows the button, so Tab goes into it.
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav.getByRole("link", { name: "Documents" })).toBeVisible();
    await expect(page.getByTestId("signed-in-user")).toBeVisible();
    await expect(page.getByTestId("language-menu")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
    expect((await page.getByRole("banner").boundingBox())?.height, "the open menu overlays the page; the row stays").toBe(height);
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Account" })).toBeFocused();

    // Escape closes it and gives focus back to the button.
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(nav).toBeHidden();

    // Following a link in it closes it on the next page.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Documents" })).toBeFocused();
    await page.keyboard.press("Enter");
    await page.waitForURL("**/documents");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav).toBeHidden();

    // The language list opens inside the screen.
    await menu.click();
    await page.getByTestId("language-menu").locator("summary").click();
    const english = await page.getByTestId("language-menu").getByRole("button", { name: "English" }).boundingBox();
    expect(english?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((english?.x ?? 0) + (english?.width ?? 0)).toBeLessThanOrEqual(phone.width);
  });

  test("signed out on a phone, brand, language and Sign in share one row", async ({ page }) => {
    await page.setViewportSize(phone);
    await page.goto("/");
    const banner = page.getByRole("banner");
    const { height, spread } = await headerRow(page, [page.getByTestId("brand-name"), banner.getByTestId("language-menu"), banner.getByRole("button", { name: "Sign in" })]);
    expect(height).toBeLessThanOrEqual(64);
    expect(spread).toBeLessThanOrEqual(4);
  });

  test("at 1280 px navigation, name, language and sign-out stay in the row, with no Menu button", async ({ page }) => {
    await page.setViewportSize(desktop);
    await signIn(page, users.alice);
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("button", { name: "Menu" })).toBeHidden();
    const signOut = banner.getByRole("button", { name: "Sign out", exact: true });
    const { height, spread } = await headerRow(page, [page.getByTestId("brand-name"), page.getByRole("navigation", { name: "Main" }), page.getByTestId("signed-in-user"), signOut]);
    expect(height).toBeLessThanOrEqual(64);
    expect(spread).toBeLessThanOrEqual(4);
  });
});

test("/favicon.ico answers with the brand mark as an image, cached for a day", async ({ request }) => {
  const redirect = await request.get("/favicon.ico", { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers()["location"]).toBe("/brand/mark.svg");
  expect(redirect.headers()["cache-control"]).toBe("public, max-age=86400");
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
  expect(await icon.text()).toBe(await readFile("public/brand/mark.svg", "utf8"));
});
