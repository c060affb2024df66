import { test, expect } from "../fixtures/test";
import { expectNoAxeViolations } from "../fixtures/axe";
import { fillSandboxSignIn, signIn, users } from "../fixtures/users";
import { MiB, stageFile, writeRandomFile } from "../documents/support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in; a test that signs
// out ends that session and the next one signs in afresh (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });
// Independent tests, the last of the run and long: spread over the workers rather than left to one.
test.describe.configure({ mode: "parallel" });

test("signed-out pages and the sandbox's sign-in page meet WCAG 2.1 AA rules", async ({ page }) => {
  await page.goto("/");
  await expectNoAxeViolations(page, "landing");
  await page.goto("/auth/error?error=AccessDenied");
  await expectNoAxeViolations(page, "auth error");
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await expect(page.getByLabel("Email")).toBeVisible();
  await expectNoAxeViolations(page, "sandbox sign-in");
  await fillSandboxSignIn(page, { ...users.alice, password: "wrong-password" });
  await expect(page.getByRole("alert")).toBeVisible();
  await expectNoAxeViolations(page, "sandbox sign-in with an error");
});

test("account and documents pages meet WCAG 2.1 AA rules", async ({ page }) => {
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toBeVisible();
  await expectNoAxeViolations(page, "account");
  await page.getByRole("link", { name: "Documents" }).click();
  await expect(page.getByRole("heading", { name: "Documents", level: 1 })).toBeVisible();
  await expectNoAxeViolations(page, "documents (before an upload)");

  const file = await writeRandomFile(test.info().outputPath("accessible.pdf"), MiB);
  await stageFile(page, file);
  await page.getByLabel("Name").fill("ab");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("Name must have at least 3 characters.").first()).toBeVisible();
  await expectNoAxeViolations(page, "documents (name error)");
  await page.getByLabel("Name").fill("accessible.pdf");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("upload-success")).toBeVisible();
  await expect(page.getByTestId("document-row").first()).toBeVisible();
  await expectNoAxeViolations(page, "documents (uploaded, the list)");

  await page.getByTestId("document-row").first().getByRole("link").click();
  await expect(page.getByTestId("audit-trail")).toBeVisible();
  await expectNoAxeViolations(page, "a document's page");
  await page.getByRole("button", { name: "Remove from this list" }).click();
  await expect(page.getByRole("dialog", { name: "Remove from this list?" })).toBeVisible();
  await expectNoAxeViolations(page, "a document's page, remove confirmation open");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
});

test("the customer-not-found state meets WCAG 2.1 AA rules", async ({ page }) => {
  await signIn(page, users.bob);
  await expect(page.getByTestId("customer-not-found")).toBeVisible();
  await expectNoAxeViolations(page, "account without customer");
});

test("the expired-link message and the sandbox's sign-out and fresh sign-in pages meet WCAG 2.1 AA rules", async ({ page }) => {
  await page.goto("/auth/error?error=LinkExpired");
  await expectNoAxeViolations(page, "expired sign-in link");
  await signIn(page, users.alice);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("button", { name: "Yes, sign me out" })).toBeVisible();
  await expectNoAxeViolations(page, "sandbox sign-out");
  await page.getByRole("button", { name: "No, stay signed in" }).click();
  await page.getByRole("main").getByRole("button", { name: "Use another account" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  await expectNoAxeViolations(page, "sandbox sign-in naming who is signed in");
});

test("the signed-in devices panel and its confirmation dialog meet WCAG 2.1 AA rules", async ({ page }) => {
  await signIn(page, users.alice);
  await expect(page.getByRole("list", { name: "Signed-in devices" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByRole("dialog", { name: "Sign out everywhere?" })).toBeVisible();
  await expectNoAxeViolations(page, "sign out everywhere, confirmation open");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
});
