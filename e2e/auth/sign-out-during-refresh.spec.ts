import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { ACCESS_TOKEN_TTL_SECONDS } from "../ports";

/** How long the sandbox holds B's refresh at its token endpoint: A signs out everywhere meanwhile. */
const HELD_MS = 4_000;

test("sign out everywhere while another browser's refresh is held at the token endpoint: that browser stays signed out", async ({ page, admin, newBrowser }) => {
  test.setTimeout(60_000);
  const issuedBefore = new Set(await admin.issuedTokens());
  const other = await (await newBrowser()).newPage();
  await signIn(other, users.bob);
  const otherExpiresAt = Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 + 500;
  await signIn(page, users.bob);
  await page.waitForTimeout(otherExpiresAt - Date.now());

  // The other browser's next page needs a refresh; the token endpoint holds it.
  await admin.delayTokenEndpoint(HELD_MS, { grantType: "refresh_token", count: 1 });
  const refreshing = other.goto("/account");
  await page.waitForTimeout(1_000);
  expect((await page.request.delete("/api/sessions")).status()).toBe(200);

  // The refresh comes back after the sign-out: it does not bring the session back.
  await refreshing;
  await expect(other.getByRole("heading", { name: "Sign in to see your account" })).toBeVisible();
  // Nor does anything later: still signed out after the token lifetime the refresh would have granted.
  await other.waitForTimeout(ACCESS_TOKEN_TTL_SECONDS * 1000 + 500);
  await other.goto("/account");
  await expect(other.getByRole("heading", { name: "Sign in to see your account" })).toBeVisible();
  await expect(other.getByTestId("signed-in-user")).toHaveCount(0);

  // The grant cannot be resumed either: the refresh token the held refresh obtained was revoked.
  const issued = (await admin.issuedTokens()).filter((t) => !issuedBefore.has(t));
  const statuses = await Promise.all(issued.map(async (t) => (await admin.refreshTokenStatus(t)).status));
  expect(statuses.filter((s) => s === "active"), "no refresh token of this test still usable").toEqual([]);
});
