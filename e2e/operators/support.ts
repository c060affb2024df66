import { expect, type BrowserContext, type Page } from "@playwright/test";
import en from "../../messages/en.json" with { type: "json" };
import ja from "../../messages/ja.json" with { type: "json" };
import { fillSandboxSignIn, users, type User } from "../fixtures/users";

/** The operator pages' two languages, each with its catalog (the tests expect the catalogs' words) and browser settings. */
export const LANGUAGES = {
  en: { catalog: en, context: { locale: "en-GB", timezoneId: "Europe/London" } },
  ja: { catalog: ja, context: { locale: "ja-JP", timezoneId: "Asia/Tokyo" } },
} as const;
export type Language = keyof typeof LANGUAGES;

/**
 * Signs `user` in through the real flow in a browser whose language is `language` (Accept-Language): the app's
 * start page, the sandbox's sign-in and consent pages, back on the account page.
 */
export async function signInIn(page: Page, user: User, language: Language) {
  const { catalog } = LANGUAGES[language];
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: catalog.signIn.withService }).click();
  await fillSandboxSignIn(page, user);
  await page.getByRole("button", { name: language === "ja" ? "許可" : "Allow" }).click();
  await page.waitForURL("**/account");
  await expect(page.getByTestId("signed-in-user")).toHaveText(user.name);
}

/** A new browser (its own cookies) with the operator signed in, in `language`. */
export async function operatorBrowser(newBrowser: (options?: object) => Promise<BrowserContext>, language: Language): Promise<Page> {
  const context = await newBrowser(LANGUAGES[language].context);
  const page = await context.newPage();
  await signInIn(page, users.oscar, language);
  return page;
}

/**
 * Creates a document at the service from the signed-in page, as the upload form's first step does (same origin, the
 * user's session), and leaves it there without a file: "created, never uploaded". Returns its item id; its record
 * may land a moment after.
 */
export async function createDocumentWithoutFile(page: Page, name: string): Promise<string> {
  const created = await page.evaluate(async (documentName) => {
    const response = await fetch("/api/documents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: documentName, doctype: "contract" }),
    });
    const body = (await response.json()) as { itemId?: string };
    return { status: response.status, itemId: body.itemId };
  }, name);
  // `recorded: false` only means the write outlasted the route's short wait; it still lands, and callers wait for it.
  expect(created.status, "the create route's status").toBe(201);
  return created.itemId!;
}

/** A name no earlier run used: the e2e databases keep every run's records. */
export const uniqueName = (prefix: string, extension = ".pdf") => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}${extension}`;
