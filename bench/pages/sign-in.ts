import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import { fillSandboxSignIn, users } from "../../e2e/fixtures/users";

function chromiumPath(): string | undefined {
  try {
    const bundled = chromium.executablePath();
    if (existsSync(bundled)) return undefined;
  } catch {
    // Playwright's own browser is not installed.
  }
  return process.env.CHROME_PATH ?? "/usr/bin/chromium";
}

/**
 * Signs alice in through the app's real flow (app → sandbox sign-in → consent → /account) in a headless
 * browser and returns the `Cookie` header the browser then sends to the app.
 */
export async function signInCookie(appUrl: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    await page.goto(appUrl);
    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    await fillSandboxSignIn(page, users.alice);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL("**/account");
    const cookies = await page.context().cookies(appUrl);
    return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}
