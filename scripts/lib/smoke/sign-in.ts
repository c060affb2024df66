import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Locator, Page } from "@playwright/test";
import { StepFailure } from "./step-failure";

/** The contract of a partner's own sign-in step (SMOKE_SIGN_IN): fill the service's page, submit, return. */
export type SignInHook = (args: { page: Page; username: string; password: string }) => Promise<void>;

/** Fields that take the account name: by type, autocomplete or name, never by label, so any language works. */
const USERNAME_FIELD = [
  'input[type="email"]',
  'input[autocomplete~="username"]',
  'input[autocomplete~="email"]',
  'input[name*="user" i]',
  'input[name*="email" i]',
  'input[name*="login" i]',
  'input[id*="user" i]',
  'input[id*="email" i]',
]
  .map((selector) => `${selector}:visible`)
  .join(", ");
const PASSWORD_FIELD = 'input[type="password"]:visible';
/** Every field that may hold a credential: masked in screenshots, emptied before the trace resumes. */
export const CREDENTIAL_FIELDS = `${USERNAME_FIELD.replaceAll(":visible", "")}, input[type="password"]`;

/** A consent page's accept button; "Deny", "Cancel" and "No" never match. */
const CONSENT_BUTTON = /^(allow|accept|authori[sz]e|consent|agree|grant|continue|yes|許可|同意|承認|続行)/i;

/** Loads SMOKE_SIGN_IN's module (a path from the working directory) and checks that it exports a function. */
export async function loadSignInHook(modulePath: string): Promise<SignInHook> {
  const loaded = (await import(pathToFileURL(path.resolve(modulePath)).href)) as { default?: unknown };
  if (typeof loaded.default !== "function") {
    throw new Error(`SMOKE_SIGN_IN=${modulePath}: the module must \`export default async ({ page, username, password }) => …\``);
  }
  return loaded.default as SignInHook;
}

async function visibleText(locator: Locator): Promise<string | null> {
  const first = locator.first();
  if (!(await first.isVisible().catch(() => false))) return null;
  const text = (await first.innerText().catch(() => "")).replace(/\s+/g, " ").trim();
  return text || null;
}

/** Submits the form a field belongs to: its submit button when it has one, Enter otherwise. */
async function submitFormOf(field: Locator): Promise<void> {
  const button = field.locator("xpath=ancestor::form[1]").locator('button[type="submit"]:visible, input[type="submit"]:visible, button:not([type]):visible').first();
  if ((await button.count()) > 0) await button.click();
  else await field.press("Enter");
}

/**
 * Fills a plain sign-in form: a username or e-mail field, a password field, a submit button. A username-first
 * form (the password on a second page) works too. Throws StepFailure when the page has no such form.
 */
export async function fillSignInForm(page: Page, username: string, password: string, timeoutMs: number): Promise<void> {
  const anyField = page.locator(`${USERNAME_FIELD}, ${PASSWORD_FIELD}`).first();
  try {
    await anyField.waitFor({ timeout: timeoutMs });
  } catch {
    const alert = await visibleText(page.getByRole("alert"));
    if (alert) throw new StepFailure(`the service refused the app's sign-in request; its page says "${alert}" (is the app's callback URL registered at the service?)`);
    throw new StepFailure(`the service's page (${new URL(page.url()).origin}) shows no sign-in form with a username and a password field; supply your own sign-in step with SMOKE_SIGN_IN`);
  }
  const passwordField = page.locator(PASSWORD_FIELD).first();
  const usernameField = page.locator(USERNAME_FIELD).first();
  if (!(await passwordField.isVisible())) {
    await usernameField.fill(username);
    await submitFormOf(usernameField);
    try {
      await passwordField.waitFor({ timeout: timeoutMs });
    } catch {
      throw new StepFailure("the service took the username but showed no password field; supply your own sign-in step with SMOKE_SIGN_IN");
    }
  } else if (await usernameField.isVisible()) {
    await usernameField.fill(username);
  }
  await passwordField.fill(password);
  await submitFormOf(passwordField);
}

export type SignInOutcome =
  | { kind: "app"; path: string }
  | { kind: "consent" }
  | { kind: "form-again"; said: string | null }
  | { kind: "service-error"; said: string }
  | { kind: "timeout"; origin: string };

/**
 * Marks the page about to take the credentials (or the consent): the mark goes with it when the service answers with
 * a new page, and stays when a script-driven page answers in place.
 */
export async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __smokeSubmitted: boolean }).__smokeSubmitted = true));
}

/**
 * After the credentials (or the consent) went in: where the browser ended up. A sign-in form on a new page, or an
 * alert on the marked one, means the service did not take them.
 */
export async function waitForSignInOutcome(page: Page, appOrigin: string, timeoutMs: number): Promise<SignInOutcome> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await page.waitForTimeout(250);
    const url = new URL(page.url());
    if (url.origin === appOrigin) return { kind: "app", path: url.pathname };
    const samePage = await page.evaluate(() => (window as unknown as { __smokeSubmitted?: boolean }).__smokeSubmitted === true).catch(() => false);
    const alert = await visibleText(page.getByRole("alert"));
    const hasPasswordField = await page.locator(PASSWORD_FIELD).first().isVisible().catch(() => false);
    if (hasPasswordField && (!samePage || alert)) return { kind: "form-again", said: alert };
    if (samePage || hasPasswordField) continue;
    if (await page.getByRole("button", { name: CONSENT_BUTTON }).first().isVisible().catch(() => false)) return { kind: "consent" };
    if (alert) return { kind: "service-error", said: alert };
  }
  return { kind: "timeout", origin: new URL(page.url()).origin };
}

/** Accepts the service's consent page. */
export async function acceptConsent(page: Page): Promise<void> {
  await markPage(page);
  await page.getByRole("button", { name: CONSENT_BUTTON }).first().click();
}

/** Empties every credential field still on the page, so no trace snapshot or screenshot taken later holds one. */
export async function clearCredentialFields(page: Page): Promise<void> {
  const fields = page.locator(CREDENTIAL_FIELDS);
  for (let i = 0; i < (await fields.count()); i++) {
    await fields
      .nth(i)
      .evaluate((el) => {
        // The property (typed) and the attribute (a server-rendered page's echo of the username).
        (el as HTMLInputElement).value = "";
        el.removeAttribute("value");
      })
      .catch(() => {});
  }
}
