import { test, expect } from "../fixtures/test";
import { fillSandboxSignIn, signIn, users } from "../fixtures/users";

test.describe("sign-in with the service", () => {
  test("alice signs in, sees her account and signs out", async ({ page }) => {
    await signIn(page, users.alice);
    const record = page.getByTestId("account-record");
    await expect(record).toContainText("alice@example.com");
    await expect(page.getByTestId("has-refresh-token")).toContainText("Held");
    await expect(page.getByTestId("granted-scopes")).toContainText("service.api");
    await expect(page.getByTestId("granted-scopes")).toContainText("offline_access");

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    // The sandbox publishes an end_session_endpoint: the service asks whether to end its session too.
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.getByRole("main").getByRole("button", { name: "Sign in with eSign" })).toBeVisible();
    // The start page says why it is there, politely (role=status), and only to someone signed out.
    await expect(page.getByRole("status").filter({ hasText: "You're signed out." })).toBeVisible();
    const res = await page.request.get("/api/account");
    expect(res.status()).toBe(401);
    expect((await res.json()).error.code).toBe("UNAUTHENTICATED");
  });

  test("bob has no customer account and is told so plainly", async ({ page }) => {
    await signIn(page, users.bob);
    const notice = page.getByTestId("customer-not-found");
    await expect(notice).toContainText("No customer account yet");
    await expect(notice).toContainText("no customer account for this user");
    // Only what is true: his uploads work, so nothing about needing a plan to use the API.
    await expect(notice).toContainText("Uploading documents works as usual");
    await expect(notice).not.toContainText("plan");
    const res = await page.request.get("/api/account");
    expect(res.status()).toBe(404);
    expect((await res.json()).error.code).toBe("CUSTOMER_NOT_FOUND");
  });

  test("a wrong password is explained on the sandbox's sign-in page", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    await fillSandboxSignIn(page, { ...users.alice, password: "wrong-password" });
    await expect(page.getByRole("alert")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(users.alice.email);
  });

  test("denying consent leads to a friendly explanation, not an error dump", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    await fillSandboxSignIn(page, users.alice);
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL("**/auth/error?error=AccessDenied");
    await expect(page.getByTestId("auth-error")).toContainText("Access was not granted");
    await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  });

  test("the account page asks a signed-out visitor to sign in", async ({ page }) => {
    await page.goto("/account");
    await expect(page.getByRole("heading", { name: "Sign in to see your account" })).toBeVisible();
  });
});
