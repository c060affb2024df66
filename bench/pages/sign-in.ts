import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "@playwright/test";
import { fillSandboxSignIn, users, type User } from "../../e2e/fixtures/users";
import type { PagePathParams } from "./pages";

function chromiumPath(): string | undefined {
  try {
    const bundled = chromium.executablePath();
    if (existsSync(bundled)) return undefined;
  } catch {
    // Playwright's own browser is not installed.
  }
  return process.env.CHROME_PATH ?? "/usr/bin/chromium";
}

export interface SignedIn extends PagePathParams {
  /** The `Cookie` header alice's browser sends to the app. */
  cookie: string;
  /** The `Cookie` header the sandbox's operator's (oscar's) browser sends to the app; the app must name him in OPERATOR_EMAILS. */
  operatorCookie: string;
}

/** Signs `user` in through the app's real flow in a fresh context and creates one document through the app's route. */
async function signInAndCreate(browser: Browser, appUrl: string, user: User, name: string): Promise<{ page: Page; cookie: string; itemId: string }> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(appUrl);
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await fillSandboxSignIn(page, user);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL("**/account");
  const created = await page.evaluate(async (docName) => {
    const res = await fetch("/api/documents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ docid: null, name: docName, doctype: "contract" }),
    });
    return { status: res.status, body: (await res.json()) as { itemId?: string } };
  }, name);
  if (created.status !== 201 || !created.body.itemId) throw new Error(`creating the bench's document as ${user.email} answered ${created.status}`);
  const cookies = await page.context().cookies(appUrl);
  return { page, cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "), itemId: created.body.itemId };
}

/**
 * Signs alice and the operator (oscar) in through the app's real flow (app → sandbox sign-in → consent → /account)
 * in a headless browser, each creating one document through the app's route (so `/documents/<itemId>` and the
 * operator's document page have a record to show), and returns the `Cookie` headers their browsers then send.
 */
export async function signIn(appUrl: string): Promise<SignedIn> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
  try {
    const alice = await signInAndCreate(browser, appUrl, users.alice, "page-weight-bench.pdf");
    const operator = await signInAndCreate(browser, appUrl, users.oscar, "operator-page-weight-bench.pdf");
    // The operator's document by the address the operator pages give it (the search finds it by its id).
    let href: string | null = null;
    for (const deadline = Date.now() + 20_000; !href && Date.now() < deadline; ) {
      await operator.page.goto(`${appUrl}/operator/search?q=${operator.itemId}`);
      const link = operator.page.getByTestId("operator-document-row").getByRole("link").first();
      href = (await link.count()) > 0 ? await link.getAttribute("href") : null;
      if (!href) await operator.page.waitForTimeout(500);
    }
    if (!href) throw new Error("the operator's search did not list the bench's document within 20 s");
    return {
      cookie: alice.cookie,
      itemId: alice.itemId,
      aliceEmail: users.alice.email,
      operatorCookie: operator.cookie,
      operatorDocumentPath: new URL(href, appUrl).pathname,
    };
  } finally {
    await browser.close();
  }
}
