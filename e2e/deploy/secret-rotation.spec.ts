import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { deployPorts, deployUrls } from "./origins";
import { sessionStoreDir } from "../session-store-scan";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

const OLD_SECRET = "e2e-only-old-auth-secret-0123456789abcdef0123456";
const NEW_SECRET = "e2e-only-new-auth-secret-fedcba9876543210fedcba9";
const COOKIE = "authjs.session-token";

test.use({ baseURL: deployUrls.secretRotation });

test.describe("AUTH_SECRET rotation", () => {
  let app: StandaloneApp | undefined;
  const start = async (authSecret: string) => {
    await app?.stop();
    app = await startStandaloneApp({
      dir: ".next/standalone",
      port: deployPorts.secretRotation,
      name: "secret-rotation",
      env: { ...sandboxEnv, AUTH_URL: deployUrls.secretRotation, AUTH_SECRET: authSecret, SESSION_STORE_DIR: sessionStoreDir(deployPorts.secretRotation) },
    });
  };

  test.afterAll(async () => {
    await app?.stop();
  });

  test("a session made under the old secret stays signed in through the three rotation steps, cookie and stored session re-sealed under the new one", async ({ page, context, request }) => {
    test.setTimeout(150_000);
    const sessionCookie = async () => (await context.cookies(deployUrls.secretRotation)).find((c) => c.name === COOKIE)?.value;
    const signedIn = async () => {
      await page.goto("/account");
      await expect(page.getByTestId("signed-in-user")).toHaveText(users.alice.name);
      expect((await page.request.get("/api/account")).status()).toBe(200);
    };

    await start(OLD_SECRET);
    await signIn(page, users.alice);
    const underOld = await sessionCookie();
    expect(underOld).toBeTruthy();

    // Step 1: the new secret listed second, to decrypt only. Nothing is re-encrypted yet.
    await start(`${OLD_SECRET},${NEW_SECRET}`);
    await signedIn();
    expect(await sessionCookie(), "still under the old secret").toBe(underOld);

    // Step 2: the new secret first. The proxy re-encrypts the cookie and re-seals the stored session.
    await start(`${NEW_SECRET},${OLD_SECRET}`);
    await signedIn();
    const reEncrypted = await sessionCookie();
    expect(reEncrypted, "the proxy wrote the cookie back").not.toBe(underOld);

    // Step 3: the old secret removed. The re-encrypted cookie and the re-sealed session still open; the old cookie does not.
    await start(NEW_SECRET);
    await signedIn();
    const stale = await request.get(`${deployUrls.secretRotation}/api/account`, { headers: { cookie: `${COOKIE}=${underOld}` } });
    expect(stale.status(), "a cookie only the removed secret opens is no session").toBe(401);
  });
});
