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

export interface SignedIn {
  /** The `Cookie` header the browser sends to the app. */
  cookie: string;
  /** A document alice created, whose page is measured too (its record: created, then the upload never came). */
  itemId: string;
}

/**
 * Signs alice in through the app's real flow (app → sandbox sign-in → consent → /account) in a headless
 * browser, creates one document through the app's route (so `/documents/<itemId>` has a record to show), and
 * returns the `Cookie` header the browser then sends to the app.
 */
export async function signIn(appUrl: string): Promise<SignedIn> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    await page.goto(appUrl);
    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    await fillSandboxSignIn(page, users.alice);
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL("**/account");
    const created = await page.evaluate(async () => {
      const res = await fetch("/api/documents", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ docid: null, name: "page-weight-bench.pdf", doctype: "contract" }),
      });
      return { status: res.status, body: (await res.json()) as { itemId?: string } };
    });
    if (created.status !== 201 || !created.body.itemId) throw new Error(`creating the bench's document answered ${created.status}`);
    const cookies = await page.context().cookies(appUrl);
    return { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "), itemId: created.body.itemId };
  } finally {
    await browser.close();
  }
}
