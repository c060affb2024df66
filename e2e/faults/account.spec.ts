import { test, expect } from "../fixtures/test";
import { signIn, users, waitForExpiry } from "../fixtures/users";
import { ACCESS_TOKEN_TTL_SECONDS, urls } from "../ports";
import type { Page } from "@playwright/test";

/**
 * Waits until a sandbox server answers again after an outage: the sandbox ends it on its own timer, and how soon
 * it listens again after that depends on the machine, so this waits for the outcome (bounded by the test's timeout).
 */
async function waitForServerBack(url: string) {
  await expect.poll(() => fetch(url).then((res) => res.status, () => 0), { timeout: 0, intervals: [250] }).toBe(200);
}
const authServerBack = () => waitForServerBack(`${urls.auth}/.well-known/openid-configuration`);

/** Signs in and waits until the page's own account request is done, so it cannot take a fault meant for the test. */
async function signInAndLoad(page: Page) {
  await signIn(page, users.alice);
  await expect(page.getByTestId("account-record")).toBeVisible();
}

/** Faults injected into the service while a signed-in user works with the account page. */
test.describe("account page under service faults", () => {
  // Signed in once per worker: the faults are the service's, not the sign-in's (e2e/fixtures/test.ts).
  test.use({ reuseSignIn: true });
  test("the API refusing connections is explained, and Try again recovers once it is back", async ({ page, admin }) => {
    await signIn(page, users.alice);
    await expect(page.getByTestId("account-record")).toBeVisible();
    // Long enough that the request and the reload below both fall inside it on a loaded machine.
    const outageMs = 10_000;
    await admin.outage("api", outageMs);
    const res = await page.request.get("/api/account");
    expect(res.status()).toBe(503);
    expect((await res.json()).error).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("cannot be reached") });
    await page.reload();
    await expect(page.getByText("We could not load your account")).toBeVisible();
    // The UI's words for SERVICE_UNAVAILABLE (messages/en.json), whatever the JSON message says.
    await expect(page.getByText("The e-signature service is not available right now.")).toBeVisible();
    await waitForServerBack(`${urls.api}/_sandbox/stats`);
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
  });

  test("an API slower than the deadline gets a clear 504, not a hanging page", async ({ page, admin }) => {
    await signInAndLoad(page);
    await admin.fault({ target: "getuserinfo", delayMs: 5_000, count: 1 });
    const started = Date.now();
    const res = await page.request.get("/api/account");
    expect(Date.now() - started).toBeLessThan(4_900);
    expect(res.status()).toBe(504);
    expect((await res.json()).error).toMatchObject({ code: "SERVICE_TIMEOUT", message: expect.stringContaining("did not answer in time") });
  });

  test("a hung API is cut off at the deadline", async ({ page, admin }) => {
    await signInAndLoad(page);
    await admin.fault({ target: "getuserinfo", hang: true, count: 1 });
    const res = await page.request.get("/api/account");
    expect(res.status()).toBe(504);
    expect((await page.request.get("/api/account")).status()).toBe(200);
  });

  test("an API 5xx is a retryable 503 with no internals", async ({ page, admin }) => {
    await signInAndLoad(page);
    await admin.fault({ target: "getuserinfo", status: 500, count: 1 });
    const res = await page.request.get("/api/account");
    expect(res.status()).toBe(503);
    const body = await res.json();
    expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.ts|getuserinfo answered/);
  });

  test("the token endpoint down at refresh time keeps the session; it renews once the endpoint is back", async ({ page, admin }) => {
    await signIn(page, users.alice);
    await waitForExpiry(page, ACCESS_TOKEN_TTL_SECONDS);
    await admin.outage("auth", 3_000);
    const during = await page.request.get("/api/account");
    expect(during.status()).toBe(503);
    expect((await during.json()).error.code).toBe("SERVICE_UNAVAILABLE");
    await authServerBack();
    expect((await page.request.get("/api/account")).status()).toBe(200);
    await page.reload();
    await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
    await expect(page.getByText("Your session has expired")).toHaveCount(0);
  });
});

test("signing in while the auth server is down explains it on our page instead of a browser error", async ({ page, admin }) => {
  await page.goto("/");
  await admin.outage("auth", 4_000);
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await page.waitForURL("**/auth/error?error=ServiceUnavailable");
  await expect(page.getByTestId("auth-error")).toContainText("not reachable");
  await authServerBack();
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByLabel("Email")).toBeVisible();
});
