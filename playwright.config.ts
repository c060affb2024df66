import { existsSync } from "node:fs";
import { chromium, defineConfig, devices } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ACCESS_TOKEN_TTL_SECONDS, ports, urls } from "./e2e/ports";
import { SERVER_LOG_DIR } from "./e2e/server-log-scan";
import { APP_SECRET, DEV_APP_SECRET } from "./e2e/secrets";
import { deployUrls } from "./e2e/deploy/origins";

// Playwright's own Chromium where it was downloaded; Debian's otherwise (machines that cannot download browsers).
const bundled = (() => {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
})();
const executablePath = bundled && existsSync(bundled) ? undefined : "/usr/bin/chromium";


mkdirSync(SERVER_LOG_DIR, { recursive: true });

/**
 * The standalone server (`npm run build` output, as deployed) with its output also written to a file,
 * which the global teardown scans for tokens.
 */
const startApp = (port: number) =>
  `bash -c 'set -o pipefail; PORT=${port} HOSTNAME=127.0.0.1 node .next/standalone/server.js 2>&1 | tee ${SERVER_LOG_DIR}/app-${port}.log'`;

/**
 * Each app server's embedded session store, a directory of its own. Not emptied here: Playwright loads this file
 * again in every worker, while the servers run. Sessions left by an earlier run name a sandbox that is gone and
 * expire with the idle timeout.
 */
const sessionStoreDir = (port: number) => join(tmpdir(), `esign-e2e-sessions-${port}`);

// The app servers the deployment specs (e2e/deploy/) start themselves.
const deployAppUrls = Object.values(deployUrls);

const appEnv = {
  ESIGN_USE_SANDBOX: "true",
  ESIGN_AUTH_URL: urls.auth,
  ESIGN_API_URL: urls.api,
  ESIGN_STORAGE_ORIGINS: urls.blob,
  // Short, so the timeout tests do not wait long.
  ESIGN_REQUEST_TIMEOUT_MS: "3000",
};

export default defineConfig({
  testDir: "./e2e",
  globalTeardown: "./e2e/server-log-scan.ts",
  // Tests share one sandbox whose counters some of them read: run them one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  use: {
    baseURL: urls.app,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: [
    {
      // The sandbox itself, not behind npx and tsx's launcher: Playwright waits for this process to exit, and a
      // wrapper exits at once on SIGTERM, so the sandbox was SIGKILLed while it removed its blob directory.
      command: "exec node --import tsx sandbox/main.ts",
      url: `${urls.api}/_sandbox/stats`,
      reuseExistingServer: false,
      timeout: 30_000,
      // SIGTERM, not Playwright's default SIGKILL: the sandbox stops Azurite and removes its blob directory.
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      stdout: "ignore",
      stderr: "pipe",
      env: {
        SANDBOX_AUTH_PORT: String(ports.auth),
        SANDBOX_API_PORT: String(ports.api),
        SANDBOX_BLOB_PORT: String(ports.blob),
        SANDBOX_ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL_SECONDS),
        SANDBOX_REDIRECT_URIS: [urls.app, urls.devClientApp, urls.misconfiguredApp, ...deployAppUrls].map((u) => `${u}/api/auth/callback/esign`).join(","),
        SANDBOX_CORS_ORIGINS: [urls.app, urls.devClientApp, ...deployAppUrls].join(","),
        // The main app's port may be overridden (E2E_APP_PORT): logout tokens go to the app under test.
        SANDBOX_BACKCHANNEL_LOGOUT_URI: `${urls.app}/api/auth/backchannel-logout`,
      },
    },
    {
      // Production build (made by `npm run test:e2e` before Playwright starts).
      command: startApp(ports.app),
      url: `${urls.app}/api/auth/providers`,
      reuseExistingServer: false,
      timeout: 60_000,
      // One access line per request: kept in .e2e-logs/ (tee), not repeated in the test output.
      stdout: "ignore",
      stderr: "pipe",
      env: { ...appEnv, AUTH_URL: urls.app, AUTH_SECRET: APP_SECRET, SESSION_STORE_DIR: sessionStoreDir(ports.app) },
    },
    {
      // The same build as the shared development client: public, PKCE, no refresh token.
      command: startApp(ports.devClientApp),
      url: `${urls.devClientApp}/api/auth/providers`,
      reuseExistingServer: false,
      timeout: 60_000,
      // One access line per request: kept in .e2e-logs/ (tee), not repeated in the test output.
      stdout: "ignore",
      stderr: "pipe",
      env: { ...appEnv, AUTH_URL: urls.devClientApp, AUTH_SECRET: DEV_APP_SECRET, ESIGN_CLIENT_ID: "dev-client", SESSION_STORE_DIR: sessionStoreDir(ports.devClientApp) },
    },
  ],
});
