import { test, expect } from "../fixtures/test";
import { fillSandboxSignIn, users } from "../fixtures/users";
import { startApp, type RunningApp } from "../../bench/load/app-server";
import { startProcess, waitForHttp, type RunningProcess } from "../../scripts/lib/child-process";
import { envPort } from "../../scripts/lib/env-port";

// A sandbox whose issuer is published with a trailing slash, as several identity services do, and an app
// configured with ESIGN_AUTH_URL exactly as that issuer. Own ports, env-overridable.
const AUTH_PORT = envPort("E2E_SLASH_AUTH_PORT", 4320);
const API_PORT = envPort("E2E_SLASH_API_PORT", 4321);
const BLOB_PORT = envPort("E2E_SLASH_BLOB_PORT", 4322);
const APP_PORT = envPort("E2E_SLASH_APP_PORT", 4323);
const ISSUER = `http://localhost:${AUTH_PORT}/`;
const APP = `http://localhost:${APP_PORT}`;

let sandbox: RunningProcess | undefined;
let app: RunningApp | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sandbox = startProcess("sandbox-slash", process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    env: {
      ...process.env,
      SANDBOX_AUTH_PORT: String(AUTH_PORT),
      SANDBOX_API_PORT: String(API_PORT),
      SANDBOX_BLOB_PORT: String(BLOB_PORT),
      SANDBOX_AUTH_URL: ISSUER,
      SANDBOX_REDIRECT_URIS: `${APP}/api/auth/callback/esign`,
      SANDBOX_CORS_ORIGINS: APP,
    },
  });
  await waitForHttp(`http://localhost:${API_PORT}/_sandbox/stats`, 60_000, sandbox.child);
  app = await startApp(APP_PORT, {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: ISSUER,
    ESIGN_API_URL: `http://127.0.0.1:${API_PORT}`,
    ESIGN_STORAGE_ORIGINS: `http://127.0.0.1:${BLOB_PORT}`,
    AUTH_URL: APP,
    AUTH_SECRET: "e2e-only-slash-issuer-app-secret-0123456789abcdef",
  });
});

test.afterAll(async () => {
  await app?.stop();
  await sandbox?.stop();
});

test("signs in against an issuer published with a trailing slash", async ({ page }) => {
  const discovery = (await (await page.request.get(`${ISSUER}.well-known/openid-configuration`)).json()) as { issuer: string };
  expect(discovery.issuer).toBe(ISSUER);

  await page.goto(`${APP}/`);
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await fillSandboxSignIn(page, users.alice);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(`${APP}/account`);
  await expect(page.getByTestId("signed-in-user")).toHaveText(users.alice.name);
  await expect(page.getByTestId("account-record")).toContainText(users.alice.email);
});
