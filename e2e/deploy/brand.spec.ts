import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { expectNoAxeViolations } from "../fixtures/axe";
import { signIn, users } from "../fixtures/users";
import { deployPorts, deployUrls } from "./origins";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

const BRAND = {
  BRAND_NAME: "Acme Legal",
  BRAND_LOGO: "/brand/acme.svg",
  BRAND_LOGO_ALT: "Acme Legal logo",
  BRAND_COLOR: "#0f766e",
  BRAND_SUPPORT: "help@acme.example",
};
const AUTH_SECRET = "e2e-only-branded-auth-secret-0123456789abcdef01";

test.use({ baseURL: deployUrls.branded });

/** Header, title and the brand colour on a page of the branded instance. */
async function expectBranded(page: Page, label: string) {
  await expect(page.getByRole("banner").getByTestId("brand-name")).toHaveText("Acme Legal");
  await expect(page.getByRole("banner").getByRole("img", { name: "Acme Legal logo" })).toHaveAttribute("src", "/brand/acme.svg");
  await expect(page).toHaveTitle(/Acme Legal$/);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--color-brand-600").trim())).toBe("#0f766e");
  await expectNoAxeViolations(page, label);
}

test.describe("a second brand, from env alone", () => {
  let app: StandaloneApp | undefined;
  test.afterAll(async () => {
    await app?.stop();
  });

  test("name, logo, colour and support contact on every page and in the error messages, axe clean", async ({ page }) => {
    test.setTimeout(90_000);
    app = await startStandaloneApp({
      dir: ".next/standalone",
      port: deployPorts.branded,
      name: "branded",
      env: { ...sandboxEnv, AUTH_URL: deployUrls.branded, AUTH_SECRET, ...BRAND },
    });
    await page.goto("/");
    await expectBranded(page, "landing");
    // The favicon is the logo.
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /\/brand\/acme\.svg/);
    // And so is /favicon.ico, which browsers and tools ask for whatever the page says.
    const favicon = await page.request.get("/favicon.ico");
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(await favicon.text()).toBe(await readFile("public/brand/acme.svg", "utf8"));
    const signInButton = page.getByRole("main").getByRole("button", { name: "Sign in with eSign" });
    expect(await signInButton.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(15, 118, 110)");

    await page.goto("/auth/error?error=Configuration");
    await expectBranded(page, "sign-in problem");
    await page.screenshot({ path: "screenshots/brand-acme-auth-error.png", fullPage: true });
    await expect(page.getByTestId("support-contact").getByRole("link", { name: "help@acme.example" })).toHaveAttribute("href", "mailto:help@acme.example");

    await signIn(page, users.alice);
    await expectBranded(page, "account");
    await page.goto("/documents");
    await expectBranded(page, "documents");
    // For docs/configuration.md (npm run screenshots copies it to docs/screenshots/).
    await page.screenshot({ path: "screenshots/brand-acme-documents.png", fullPage: true });
    await app.stop();
    app = undefined;
  });

  test("an unreadable colour is refused at start, naming BRAND_COLOR", async () => {
    const dir = path.resolve(".next/standalone");
    const child = spawn(process.execPath, [path.join(dir, "server.js")], {
      cwd: dir,
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(deployPorts.branded), HOSTNAME: "127.0.0.1", ...sandboxEnv, AUTH_URL: deployUrls.branded, AUTH_SECRET, BRAND_COLOR: "#facc15" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(output).toContain("BRAND_COLOR #facc15 is too light for white text on it (buttons): contrast 1.53:1, WCAG AA needs 4.5:1");
  });
});
