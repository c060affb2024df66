import type { APIRequestContext, Page } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";

const BACKCHANNEL_LOGOUT_URI = `${urls.app}/api/auth/backchannel-logout`;

/** Posts a logout token to the app as the service does: server to server, form-encoded. */
const deliver = (request: APIRequestContext, jwt: string) => request.post(BACKCHANNEL_LOGOUT_URI, { form: { logout_token: jwt } });

/** Sign-in while the sandbox still has her session (a minted token ended only the app's): consent, no password. */
async function signInWhileSignedInAtService(page: Page) {
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL("**/account");
}

async function expectSignedOut(page: Page) {
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Sign in to see your account" })).toBeVisible();
}

async function expectSignedIn(page: Page) {
  await page.goto("/account");
  await expect(page.getByTestId("signed-in-user")).toBeVisible();
}

test.describe("back-channel logout", () => {
  test("signing out on the service's own sign-out page ends the app session before the next request", async ({ page, admin }) => {
    await signIn(page, users.alice);
    const sentBefore = (await admin.logoutTokensSent()).length;

    await page.goto(`${urls.auth}/connect/endsession`);
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await expect(page.getByRole("heading", { name: "Signed out" })).toBeVisible();

    const sent = (await admin.logoutTokensSent()).slice(sentBefore);
    expect(sent.map((t) => [t.uri, t.status])).toEqual([[BACKCHANNEL_LOGOUT_URI, 200]]);
    await expectSignedOut(page);
  });

  test("signing the user out at the service ends the app's sessions in every browser, without revoking at the service", async ({
    page,
    admin,
    newBrowser,
  }) => {
    await signIn(page, users.alice);
    const other = await (await newBrowser()).newPage();
    await signIn(other, users.alice);
    const revocationsBefore = (await admin.stats()).revocations.refresh_token;
    const sentBefore = (await admin.logoutTokensSent()).length;

    // Both browsers' sessions at the sandbox end (and any older ones of hers), each told to the app.
    expect((await admin.signOutAtSandbox({ email: users.alice.email })).logoutTokens).toBeGreaterThanOrEqual(2);
    const sent = (await admin.logoutTokensSent()).slice(sentBefore);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((t) => t.status !== 200)).toEqual([]);

    await expectSignedOut(page);
    await expectSignedOut(other);
    expect((await admin.stats()).revocations.refresh_token).toBe(revocationsBefore);
  });

  // The variants of a bad logout token (forged, expired, wrongly addressed, malformed, naming nobody, none at
  // all) need no browser: tests/unit/backchannel-logout.test.ts sends each to the real route handler.

  test("a replayed logout token is refused with 400 and ends nothing the second time", async ({ page, request, admin }) => {
    await signIn(page, users.alice);
    // Naming the user alone, it would end whichever session she has when it comes back.
    const jwt = await admin.mintLogoutToken({ sub: users.alice.sub });
    const first = await deliver(request, jwt);
    expect(first.status()).toBe(200);
    expect(first.headers()["cache-control"]).toBe("no-store");
    await expectSignedOut(page);

    await signInWhileSignedInAtService(page);
    const replay = await deliver(request, jwt);
    expect(replay.status()).toBe(400);
    expect(await replay.json()).toEqual({ error: "invalid_request", error_description: expect.stringContaining("already used") });
    await expectSignedIn(page);

    // The very token the service sent at a sign-out, sent again.
    const sentBefore = (await admin.logoutTokensSent()).length;
    await admin.signOutAtSandbox({ email: users.alice.email });
    const [sent] = (await admin.logoutTokensSent()).slice(sentBefore);
    expect(sent?.status).toBe(200);
    await signIn(page, users.alice);
    expect((await deliver(request, sent!.jwt)).status()).toBe(400);
    await expectSignedIn(page);
  });

  test("a logout token signed with a rotated key while the JWKS is down gets 503 Retry-After, and the service's retry ends the session", async ({
    page,
    request,
    admin,
  }) => {
    await signIn(page, users.alice);
    await admin.rotateSigningKey();
    await admin.addJwksFault({ status: 503, count: 1000 });
    try {
      const jwt = await admin.mintLogoutToken({ sub: users.alice.sub });
      const refused = await deliver(request, jwt);
      expect(refused.status()).toBe(503);
      expect(refused.headers()["retry-after"]).toBe("5");
      expect(await refused.json()).toMatchObject({ error: "temporarily_unavailable" });
      await expectSignedIn(page);

      await admin.clearFaults();
      // As the service retries after Retry-After. The first retry is answered 200 unless this app looked the key
      // set up less than 30 s ago (jose then waits out its refetch cooldown, still answering 503).
      await expect
        .poll(async () => (await deliver(request, jwt)).status(), { intervals: [0, 5_000], timeout: 35_000 })
        .toBe(200);
      await expectSignedOut(page);
    } finally {
      await admin.clearFaults();
    }
  });

  test("a token naming nobody signed in here is still answered 200", async ({ request, admin }) => {
    const res = await deliver(request, await admin.mintLogoutToken({ sub: "nobody-signed-in-here" }));
    expect(res.status()).toBe(200);
  });
});
