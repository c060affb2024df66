import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { deployPorts, deployUrls } from "./origins";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

/**
 * What the Dockerfile does, without a container engine: the standalone folder alone, copied to an empty
 * directory (no node_modules, no sources, no .next of the checkout beside it), started with production env.
 */
test.use({ baseURL: deployUrls.standaloneCopy });

test.describe("standalone build copied to an empty directory", () => {
  let dir: string;
  let app: StandaloneApp;

  test.beforeAll(async () => {
    expect(existsSync(".next/standalone/server.js"), "run `npm run build` first").toBe(true);
    dir = mkdtempSync(path.join(tmpdir(), "esign-standalone-"));
    cpSync(".next/standalone", dir, { recursive: true });
    app = await startStandaloneApp({
      dir,
      port: deployPorts.standaloneCopy,
      name: "standalone-copy",
      env: { ...sandboxEnv, AUTH_URL: deployUrls.standaloneCopy, AUTH_SECRET: "e2e-only-standalone-secret-0123456789abcdef01" },
    });
  });

  test.afterAll(async () => {
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("holds everything it needs, and signs in, shows the account and is ready", async ({ page, request }) => {
    expect(readdirSync(dir).sort()).toEqual(expect.arrayContaining([".next", "node_modules", "package.json", "server.js"]));
    expect(existsSync(path.join(dir, ".next/static")), "static files copied in by npm run build").toBe(true);

    const ready = await request.get(`${deployUrls.standaloneCopy}/api/health/ready`);
    expect(ready.status()).toBe(200);

    const failedAssets: string[] = [];
    page.on("response", (res) => {
      if (res.url().includes("/_next/static/") && res.status() !== 200) failedAssets.push(`${res.status()} ${res.url()}`);
    });
    await signIn(page, users.alice);
    await expect(page).toHaveURL(`${deployUrls.standaloneCopy}/account`);
    await expect(page.getByTestId("granted-scopes")).toContainText("service.api");
    const account = await page.request.get(`${deployUrls.standaloneCopy}/api/account`);
    expect(account.status()).toBe(200);
    expect(failedAssets).toEqual([]);
  });
});
