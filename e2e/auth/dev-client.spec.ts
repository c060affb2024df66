import { test, expect } from "../fixtures/test";
import { signIn, users, waitForExpiry } from "../fixtures/users";
import { ACCESS_TOKEN_TTL_SECONDS, urls } from "../ports";

test.use({ baseURL: urls.devClientApp });

test("the shared development client signs in with PKCE, gets no refresh token, and asks to sign in again at expiry", async ({
  page,
}) => {
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
  await expect(page.getByTestId("has-refresh-token")).toContainText("None");
  await expect(page.getByTestId("granted-scopes")).not.toContainText("offline_access");

  await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
  await page.reload();
  await expect(page.getByText("Your session has expired").first()).toBeVisible();
  const res = await page.request.get("/api/account");
  expect(res.status()).toBe(401);
  expect((await res.json()).error.code).toBe("SESSION_EXPIRED");
});
