import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { buildFingerprint } from "../../scripts/lib/build-fingerprint";
import { DEMO_BUILD_STAMP, writeDemoBuildStamp } from "../../scripts/lib/demo-build-stamp";
import { envPort } from "../../scripts/lib/env-port";
import { findTakenPort, type PortUse } from "../../scripts/lib/port-check";

/**
 * `npm run demo` as a newcomer runs it in a terminal: its own process group, Ctrl+C being SIGINT to that group.
 * On this spec's own ports (env-overridable) and folders; no browser needed. The demo reuses the build under test:
 * its stamp is written for it here (as the demo writes it after a build) and put back as it was afterwards.
 */
const APP_PORT = envPort("E2E_DEMO_APP_PORT", 4880);
const SANDBOX_PORTS = { auth: envPort("E2E_DEMO_AUTH_PORT", 4881), api: envPort("E2E_DEMO_API_PORT", 4882), blob: envPort("E2E_DEMO_BLOB_PORT", 4883) };
const DATA_DIR = path.join(tmpdir(), `esign-e2e-demo-${APP_PORT}`);
const RUNNING = /eSign partner demo is running: http:\/\/localhost:(\d+)/;

const demoEnv = {
  ...process.env,
  PORT: String(APP_PORT),
  SANDBOX_AUTH_PORT: String(SANDBOX_PORTS.auth),
  SANDBOX_API_PORT: String(SANDBOX_PORTS.api),
  SANDBOX_BLOB_PORT: String(SANDBOX_PORTS.blob),
  // From the environment, so the demo writes no .env.local into the checkout.
  AUTH_SECRET: "e2e-only-demo-secret-0123456789abcdef0123456789",
  SESSION_STORE_DIR: path.join(DATA_DIR, "sessions"),
  DATABASE_DIR: path.join(DATA_DIR, "db"),
};

const demoPorts: PortUse[] = [APP_PORT, SANDBOX_PORTS.auth, SANDBOX_PORTS.api, SANDBOX_PORTS.blob].map((port) => ({
  port,
  host: "127.0.0.1",
  what: `the demo's port ${port}`,
  variable: "",
}));

type Demo = { child: ChildProcess; output: () => string; exited: Promise<number | string | null> };

/** `npm run demo` in a process group of its own, as a terminal starts it. */
function startDemo(): Demo {
  let output = "";
  const child = spawn("npm", ["run", "demo"], { env: demoEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  return { child, output: () => output, exited };
}

const started: Demo[] = [];
let previousStamp: string | null = null;

test.beforeAll(() => {
  previousStamp = existsSync(DEMO_BUILD_STAMP) ? readFileSync(DEMO_BUILD_STAMP, "utf8") : null;
  writeDemoBuildStamp(buildFingerprint(process.cwd()));
  rmSync(DATA_DIR, { recursive: true, force: true });
});

test.afterAll(async () => {
  for (const demo of started) {
    if (demo.child.exitCode === null && demo.child.signalCode === null) process.kill(-demo.child.pid!, "SIGKILL");
  }
  if (previousStamp === null) rmSync(DEMO_BUILD_STAMP, { force: true });
  else writeFileSync(DEMO_BUILD_STAMP, previousStamp);
  rmSync(DATA_DIR, { recursive: true, force: true });
});

test.describe("npm run demo", () => {
  test.describe.configure({ mode: "serial" });

  test("names a port it finds taken, the variable that moves it, and never says it is running", async () => {
    const stranger = createServer();
    await new Promise<void>((resolve) => stranger.listen(APP_PORT, "127.0.0.1", resolve));
    try {
      const demo = startDemo();
      started.push(demo);
      expect(await demo.exited).toBe(1);
      expect(demo.output()).toContain(`port ${APP_PORT} (the app) is already in use`);
      expect(demo.output()).toContain("PORT=<free port> npm run demo");
      expect(demo.output()).not.toMatch(RUNNING);
    } finally {
      await new Promise<void>((resolve) => stranger.close(() => resolve()));
    }
  });

  test("returns after Ctrl+C only once its app and sandbox have exited, so a start at once succeeds", async () => {
    test.setTimeout(180_000);
    // The second start comes the moment the first is back at the prompt.
    for (const run of ["first", "second"]) {
      const demo = startDemo();
      started.push(demo);
      await expect.poll(demo.output, { message: `the ${run} demo runs`, timeout: 90_000 }).toMatch(RUNNING);
      expect((await fetch(`http://localhost:${APP_PORT}/api/health`)).status).toBe(200);
      process.kill(-demo.child.pid!, "SIGINT");
      await demo.exited;
      // Back at the prompt: nothing of the demo holds a port any more.
      expect(await findTakenPort(demoPorts), `a port after the ${run} demo returned`).toBeUndefined();
      expect(demo.output()).toContain("demo: stopped");
    }
  });
});
