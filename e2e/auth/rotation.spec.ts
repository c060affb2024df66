import { test, expect } from "../fixtures/test";
import { refreshesSince } from "../fixtures/refresh-spacing";
import { signIn, users, waitForExpiry } from "../fixtures/users";
import { ACCESS_TOKEN_TTL_SECONDS } from "../ports";

test.describe("refresh-token rotation", () => {
  // Independent tests (each signs in afresh and resets or sets its faults), long for their expiries: spread over the workers.
  test.describe.configure({ mode: "parallel" });
  test("stays signed in across three expiries with one refresh each", async ({ page, admin }) => {
    test.setTimeout(90_000);
    const since = Date.now();
    await signIn(page, users.alice);
    await admin.reset();
    for (let expiry = 1; expiry <= 3; expiry++) {
      await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
      // A page render, route handlers in parallel, and the session endpoint, all after the same expiry.
      await page.reload();
      const [a, b, session] = await Promise.all([
        page.request.get("/api/account"),
        page.request.get("/api/account"),
        page.request.get("/api/auth/session"),
      ]);
      expect([a.status(), b.status(), session.status()]).toEqual([200, 200, 200]);
      expect((await session.json()).error).toBeUndefined();
      await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
      // Never two refreshes for one token lifetime (a count alone would also change when these steps outlast one).
      expect(refreshesSince(await admin.stats(), since, ACCESS_TOKEN_TTL_SECONDS), `refreshes after expiry ${expiry}`).toBeGreaterThanOrEqual(expiry);
    }
    expect((await admin.stats()).refreshReuse).toBe(0);
  });

  test("twenty parallel account requests right after expiry make one refresh and all succeed", async ({ page, admin }) => {
    await signIn(page, users.alice);
    await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
    await admin.reset();
    const since = Date.now();
    const statuses = await Promise.all(Array.from({ length: 20 }, () => page.request.get("/api/account").then((r) => r.status())));
    expect(statuses).toEqual(Array(20).fill(200));
    const stats = await admin.stats();
    expect(refreshesSince(stats, since, ACCESS_TOKEN_TTL_SECONDS)).toBeGreaterThanOrEqual(1);
    expect(stats.refreshReuse).toBe(0);
    // The browser kept the rotated cookie: the next request needs no refresh of its own and still works.
    expect((await page.request.get("/api/account")).status()).toBe(200);
    expect(refreshesSince(await admin.stats(), since, ACCESS_TOKEN_TTL_SECONDS)).toBeGreaterThanOrEqual(1);
  });

  for (const [status, meaning] of [[400, "invalid_grant: the refresh token refused"]] as const) {
    test(`a refresh refused with ${status} (${meaning}) asks the user to sign in again, with no server error`, async ({ page, admin }) => {
      await signIn(page, users.alice);
      await admin.fault({ target: "token", grantType: "refresh_token", status, count: 1 });
      await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
      const statuses: number[] = [];
      page.on("response", (r) => statuses.push(r.status()));
      await page.reload();
      await expect(page.getByText("Your session has expired").first()).toBeVisible();
      await expect(page.getByRole("button", { name: "Sign in again" }).first()).toBeVisible();
      const res = await page.request.get("/api/account");
      expect(res.status()).toBe(401);
      expect((await res.json()).error.code).toBe("SESSION_EXPIRED");
      expect(statuses.filter((s) => s >= 500)).toEqual([]);

      // Signing in again restores everything.
      await page.getByRole("button", { name: "Sign in again" }).first().click();
      await page.getByRole("button", { name: "Allow" }).click();
      await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
    });
  }

  test("a refused client (401 invalid_client: a wrong ESIGN_CLIENT_SECRET) signs nobody out, and once fixed the user carries on without signing in", async ({ page, admin }) => {
    await signIn(page, users.alice);
    await admin.reset();
    // The deploy's mistake: every refresh refused as the service refuses a wrong client secret.
    await admin.fault({ target: "token", grantType: "refresh_token", status: 401, count: 1000 });
    await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
    await page.reload();
    await expect(page.getByText("We could not load your account")).toBeVisible();
    // The UI's words for SERVICE_UNAVAILABLE (messages/en.json): the service is unavailable, not the session expired.
    await expect(page.getByText("The e-signature service is not available right now.")).toBeVisible();
    await expect(page.getByText("Your session has expired")).toHaveCount(0);
    const during = await page.request.get("/api/account");
    expect(during.status()).toBe(503);
    expect((await during.json()).error.code).toBe("SERVICE_UNAVAILABLE");

    // The fix deployed: the same session refreshes with the refresh token it kept.
    await admin.clearFaults();
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
    await expect(page.getByText("Your session has expired")).toHaveCount(0);
    const stats = await admin.stats();
    expect(stats.tokenErrors["401"]).toBeGreaterThanOrEqual(2);
    expect(stats.grants).toEqual({ authorization_code: 0, refresh_token: 1 });
    expect(stats.refreshReuse).toBe(0);
  });

  test("a token endpoint outage during refresh keeps the session and recovers when it clears", async ({ page, admin }) => {
    await signIn(page, users.alice);
    await admin.fault({ target: "token", grantType: "refresh_token", status: 503, count: 2 });
    await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
    const first = await page.request.get("/api/account");
    expect(first.status()).toBe(503);
    expect((await first.json()).error.code).toBe("SERVICE_UNAVAILABLE");
    const second = await page.request.get("/api/account");
    expect(second.status()).toBe(503);
    // Fault used up: the next request refreshes and succeeds, still signed in.
    expect((await page.request.get("/api/account")).status()).toBe(200);
    const session = await (await page.request.get("/api/auth/session")).json();
    expect(session.error).toBeUndefined();
  });
});
