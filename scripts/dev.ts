/**
 * The development loop in one command: the sandbox and `next dev` (hot reload) together; Ctrl-C stops both.
 * A fresh clone needs no setup: a local AUTH_SECRET is written to .env.local on first run, as `npm run demo` does.
 * Ports: PORT (the app, 3000), SANDBOX_AUTH_PORT / SANDBOX_API_PORT / SANDBOX_BLOB_PORT (4000 / 4001 / 4002).
 */
import { createRequire } from "node:module";
import { SANDBOX_OPERATOR_EMAIL } from "../sandbox/users";
import { ensureLocalAuthSecret } from "./lib/auth-secret";
import { startProcess, waitForHttp, type RunningProcess } from "./lib/child-process";
import { findTakenPort, portTakenMessage } from "./lib/port-check";
import { envPort } from "./lib/env-port";

const log = (message: string) => console.log(`dev: ${message}`);

const appPort = envPort("PORT", 3000);
const sandboxPorts = { auth: envPort("SANDBOX_AUTH_PORT", 4000), api: envPort("SANDBOX_API_PORT", 4001), blob: envPort("SANDBOX_BLOB_PORT", 4002) };
// localhost, not 127.0.0.1: the OAuth redirect URI must match exactly, and Next rewrites one to the other.
const appUrl = `http://localhost:${appPort}`;

const taken = await findTakenPort([
  { port: appPort, host: undefined, what: "the app, next dev", variable: "PORT" },
  { port: sandboxPorts.auth, host: "127.0.0.1", what: "the sandbox's auth server", variable: "SANDBOX_AUTH_PORT" },
  { port: sandboxPorts.api, host: "127.0.0.1", what: "the sandbox's API", variable: "SANDBOX_API_PORT" },
  { port: sandboxPorts.blob, host: "127.0.0.1", what: "the sandbox's blob storage", variable: "SANDBOX_BLOB_PORT" },
]);
if (taken) {
  console.error(`dev: ${portTakenMessage(taken, "npm run dev")}`);
  process.exit(1);
}

const authSecret = ensureLocalAuthSecret(log);
const running: RunningProcess[] = [];
let stopping = false;

async function stopAll(code: number): Promise<never> {
  stopping = true;
  // The sandbox gets time to stop Azurite and remove its blob directory.
  await Promise.all(running.map((p) => p.stop(10_000)));
  process.exit(code);
}

function start(name: string, args: string[], env: Record<string, string>): RunningProcess {
  const child = startProcess(name, process.execPath, args, { env: { ...process.env, ...env }, log: console.log });
  child.child.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`dev: ${name} exited (${signal ?? code}); stopping`);
    void stopAll(1);
  });
  running.push(child);
  return child;
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (!stopping) void stopAll(0);
  });
}

try {
  const sandbox = start("sandbox", ["--import", "tsx", "sandbox/main.ts"], {
    SANDBOX_AUTH_PORT: String(sandboxPorts.auth),
    SANDBOX_API_PORT: String(sandboxPorts.api),
    SANDBOX_BLOB_PORT: String(sandboxPorts.blob),
    SANDBOX_REDIRECT_URIS: `${appUrl}/api/auth/callback/esign`,
    SANDBOX_CORS_ORIGINS: appUrl,
  });
  await waitForHttp(`http://127.0.0.1:${sandboxPorts.api}/_sandbox/stats`, 30_000, sandbox.child);

  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const app = start("app", [nextBin, "dev", "--port", String(appPort)], {
    AUTH_SECRET: authSecret,
    AUTH_URL: appUrl,
    // These override any ESIGN_* in .env files: `npm run dev` always talks to its own sandbox.
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: `http://localhost:${sandboxPorts.auth}`,
    ESIGN_API_URL: `http://127.0.0.1:${sandboxPorts.api}`,
    ESIGN_STORAGE_ORIGINS: `http://127.0.0.1:${sandboxPorts.blob}`,
    // The sandbox's operator, so the operator pages can be worked on (docs/operators.md); yours replaces him.
    OPERATOR_EMAILS: process.env.OPERATOR_EMAILS || SANDBOX_OPERATOR_EMAIL,
  });
  await waitForHttp(`${appUrl}/api/health`, 120_000, app.child);

  console.log(`
  eSign partner, development: ${appUrl} (hot reload: edits show up without a restart)

  Sign in as alice@example.com / alice-password (has a customer account)
          or bob@example.com / bob-password     (no customer account)
          or oscar@example.com / oscar-password (an operator: ${appUrl}/operator)

  Press Ctrl+C to stop the app and the sandbox.
  `);
} catch (error) {
  console.error(`dev: ${error instanceof Error ? error.message : String(error)}; stopping`);
  await stopAll(1);
}
