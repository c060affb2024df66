import { mkdirSync } from "node:fs";
import { defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test";
import { chromiumArgs, e2eChromiumExecutablePath } from "./e2e/chromium-path";
import { ACCESS_TOKEN_TTL_SECONDS, slotPorts, slotUrls, urls, workerCount } from "./e2e/ports";
import { SERVER_LOG_DIR } from "./e2e/server-log-scan";
import { sessionStoreDir } from "./e2e/session-store-scan";
import { databaseDir } from "./e2e/database-scan";
import { APP_SECRET, DEV_APP_SECRET } from "./e2e/secrets";
import { deployUrls } from "./e2e/deploy/origins";
import { SANDBOX_OPERATOR_EMAIL } from "./sandbox/users";
import { UNLIMITED_BUDGETS } from "./scripts/lib/unlimited-budgets";


mkdirSync(SERVER_LOG_DIR, { recursive: true });

/**
 * The standalone server (`npm run build` output, as deployed) with its output also written to a file,
 * which the global teardown scans for tokens.
 */
const startApp = (port: number) =>
  `bash -c 'set -o pipefail; PORT=${port} HOSTNAME=127.0.0.1 node .next/standalone/server.js 2>&1 | tee ${SERVER_LOG_DIR}/app-${port}.log'`;

// Each app server's embedded session store, a directory of its own (sessionStoreDir). Not emptied here: Playwright
// loads this file again in every worker, while the servers run. Sessions left by an earlier run name a sandbox
// that is gone and expire with the idle timeout.
// Each app server's embedded database, likewise: one folder serves one process (a second one refuses to start).
// Kept between runs, so lists hold earlier runs' documents: specs look for their own by name.

// The app servers the deployment specs (e2e/deploy/) start themselves.
const deployAppUrls = Object.values(deployUrls);

type WebServer = Extract<PlaywrightTestConfig["webServer"], unknown[]>[number];

/** One worker's servers: its sandbox, the app as the partner client, the app as the development client. */
function slotServers(slot: number): WebServer[] {
  const ports = slotPorts(slot);
  const slotUrl = slotUrls(ports);
  const appEnv = {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: slotUrl.auth,
    ESIGN_API_URL: slotUrl.api,
    ESIGN_STORAGE_ORIGINS: slotUrl.blob,
    // Short, so the timeout tests do not wait long.
    ESIGN_REQUEST_TIMEOUT_MS: "3000",
    // Every budget far above the suite's own traffic: a whole run signs in from 127.0.0.1 dozens of times and
    // creates documents by the hundred as alice within one window, which is what the defaults are there to stop.
    // The budgets are tested on servers of their own (e2e/documents/rate-limits.spec.ts) and in Vitest.
    ...UNLIMITED_BUDGETS,
    // The sandbox's operator (e2e/fixtures/users.ts): e2e/operators/ signs him in; everyone else is not one.
    OPERATOR_EMAILS: SANDBOX_OPERATOR_EMAIL,
  };
  return [
    {
      // The sandbox itself, not behind npx and tsx's launcher: Playwright waits for this process to exit, and a
      // wrapper exits at once on SIGTERM, so the sandbox was SIGKILLed while it removed its blob directory.
      command: "exec node --import tsx sandbox/main.ts",
      url: `${slotUrl.api}/_sandbox/stats`,
      reuseExistingServer: false,
      timeout: 60_000,
      // SIGTERM, not Playwright's default SIGKILL: the sandbox stops Azurite and removes its blob directory.
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      stdout: "ignore",
      stderr: "pipe",
      env: {
        SANDBOX_AUTH_PORT: String(ports.auth),
        SANDBOX_API_PORT: String(ports.api),
        SANDBOX_BLOB_PORT: String(ports.blob),
        SANDBOX_ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL_SECONDS),
        SANDBOX_REDIRECT_URIS: [slotUrl.app, slotUrl.devClientApp, slotUrl.misconfiguredApp, ...deployAppUrls]
          .map((u) => `${u}/api/auth/callback/esign`)
          .join(","),
        SANDBOX_CORS_ORIGINS: [slotUrl.app, slotUrl.devClientApp, ...deployAppUrls].join(","),
        // Logout tokens go to this worker's partner app.
        SANDBOX_BACKCHANNEL_LOGOUT_URI: `${slotUrl.app}/api/auth/backchannel-logout`,
      },
    },
    {
      // Production build (made by `npm run test:e2e` before Playwright starts).
      command: startApp(ports.app),
      url: `${slotUrl.app}/api/auth/providers`,
      reuseExistingServer: false,
      timeout: 90_000,
      // One access line per request: kept in .e2e-logs/ (tee), not repeated in the test output.
      stdout: "ignore",
      stderr: "pipe",
      env: { ...appEnv, AUTH_URL: slotUrl.app, AUTH_SECRET: APP_SECRET, SESSION_STORE_DIR: sessionStoreDir(ports.app), DATABASE_DIR: databaseDir(ports.app) },
    },
    {
      // The same build as the shared development client: public, PKCE, no refresh token.
      command: startApp(ports.devClientApp),
      url: `${slotUrl.devClientApp}/api/auth/providers`,
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { ...appEnv, AUTH_URL: slotUrl.devClientApp, AUTH_SECRET: DEV_APP_SECRET, ESIGN_CLIENT_ID: "dev-client", SESSION_STORE_DIR: sessionStoreDir(ports.devClientApp), DATABASE_DIR: databaseDir(ports.devClientApp) },
    },
  ];
}

/**
 * The queue, as projects: Playwright hands spec files (and the tests of a `parallel` describe) to free workers in
 * project order. Specs that mostly wait (token expiries, outages, servers of their own) alternate with specs that
 * keep the CPU busy (large uploads, renders, axe), so that on two cores the waiting ones' idle time is used: in
 * one block each, the first half of the run left the CPU 40 % idle and the second half had it saturated.
 */
const QUEUE = [
  // Start nginx, redis-server, PostgreSQL or more app instances; two-instances is the longest file.
  { name: "own-servers", testMatch: ["scale/**/*.spec.ts"] },
  { name: "documents", testMatch: ["documents/**/*.spec.ts"] },
  { name: "auth", testMatch: ["auth/**/*.spec.ts"] },
  { name: "own-servers-deploy", testMatch: ["deploy/**/*.spec.ts", "operate/**/*.spec.ts"] },
  // A Japanese user in Tokyo (docs/languages.md): Accept-Language and navigator.language ja-JP, the clock in Asia/Tokyo.
  { name: "japanese", testMatch: ["i18n/**/*.spec.ts"], use: { locale: "ja-JP", timezoneId: "Asia/Tokyo" } },
];

/** Last, everything else: `e2e/faults/`, `quality/`, `security/`, `visual/`, and any folder added later. */
const REST = { name: "pages", testIgnore: QUEUE.flatMap((project) => project.testMatch) };

export default defineConfig({
  testDir: "./e2e",
  globalTeardown: "./e2e/server-log-scan.ts",
  // Each worker has its own sandbox and apps (e2e/ports.ts); the tests of one file run in order in one worker.
  workers: workerCount,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["./e2e/timing-reporter.ts"], ...(process.env.CI ? [["html", { open: "never" }] as const] : [])],
  use: {
    // Evaluated in each worker, so it is that worker's app.
    baseURL: urls.app,
    // A failed test keeps its actions, network and console; the DOM snapshots and screencast a trace can also
    // record cost about a tenth of the suite's time on two cores (`--trace on` records them for a rerun).
    trace: { mode: "retain-on-failure", snapshots: false, screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: { executablePath: e2eChromiumExecutablePath, args: chromiumArgs },
  },
  projects: [...QUEUE, REST].map((project) => ({ ...project, use: { ...devices["Desktop Chrome"], ...("use" in project ? project.use : {}) } })),
  webServer: Array.from({ length: workerCount }, (_, slot) => slotServers(slot)).flat(),
});
