import { SANDBOX_OPERATOR_EMAIL } from "../../sandbox/users";
import { startProcess, waitForOwnServer, type RunningProcess } from "./child-process";
import { envPort } from "./env-port";
import { findTakenPort, portTakenMessage, type PortUse } from "./port-check";

/**
 * The sandbox and an app wired to it on loopback, as `npm run demo` and `npm run dev` run them. Ports: PORT (the
 * app, 3000), SANDBOX_AUTH_PORT / SANDBOX_API_PORT / SANDBOX_BLOB_PORT (4000 / 4001 / 4002).
 */
export type LocalStack = {
  appUrl: string;
  /** Checks every port is free; prints which one is taken, by whom it is needed and how to move it, and exits 1. */
  assertPortsFree(): Promise<void>;
  /** Starts the sandbox; resolves once it says it is ready and answers (never a stranger on its ports). */
  startSandbox(): Promise<RunningProcess>;
  /** Starts the app; resolves once it says it is ready and `readyPath` answers. */
  startApp(args: string[], env: Record<string, string>, readyPath: string, timeoutMs: number): Promise<RunningProcess>;
  /** Stops the app and the sandbox; resolves once every process of theirs has exited (their ports and folders free). */
  stopAll(): Promise<void>;
};

/** What `next start`'s server and `next dev` print once they listen; the sandbox's line once all three of its servers do. */
const APP_READY_LINE = /Ready in /;
const SANDBOX_READY_LINE = /^e-signature sandbox ready$/;
/** Above the app's own bound on its graceful shutdown (SHUTDOWN_DRAIN_MS, 25 s), so it is never cut short. */
const STOP_GRACE_MS = 30_000;

export function localStack(command: string, appHost: string | undefined, onExit: (name: string, how: string) => void): LocalStack {
  const appPort = envPort("PORT", 3000);
  const sandboxPorts = { auth: envPort("SANDBOX_AUTH_PORT", 4000), api: envPort("SANDBOX_API_PORT", 4001), blob: envPort("SANDBOX_BLOB_PORT", 4002) };
  // localhost, not 127.0.0.1: the OAuth redirect URI must match exactly, and Next rewrites one to the other.
  const appUrl = `http://localhost:${appPort}`;
  const uses: PortUse[] = [
    { port: appPort, host: appHost, what: "the app", variable: "PORT" },
    { port: sandboxPorts.auth, host: "127.0.0.1", what: "the sandbox's auth server", variable: "SANDBOX_AUTH_PORT" },
    { port: sandboxPorts.api, host: "127.0.0.1", what: "the sandbox's API", variable: "SANDBOX_API_PORT" },
    { port: sandboxPorts.blob, host: "127.0.0.1", what: "the sandbox's blob storage", variable: "SANDBOX_BLOB_PORT" },
  ];
  const running: RunningProcess[] = [];
  let stopping = false;

  const start = (name: string, args: string[], env: Record<string, string>) => {
    const child = startProcess(name, process.execPath, args, { env: { ...process.env, ...env }, log: console.log });
    child.child.once("exit", (code, signal) => {
      if (!stopping) onExit(name, String(signal ?? code));
    });
    running.push(child);
    return child;
  };

  return {
    appUrl,
    async assertPortsFree() {
      const taken = await findTakenPort(uses);
      if (!taken) return;
      console.error(`${command.replace("npm run ", "")}: ${portTakenMessage(taken, command)}`);
      process.exit(1);
    },
    async startSandbox() {
      const sandbox = start("sandbox", ["--import", "tsx", "sandbox/main.ts"], {
        SANDBOX_AUTH_PORT: String(sandboxPorts.auth),
        SANDBOX_API_PORT: String(sandboxPorts.api),
        SANDBOX_BLOB_PORT: String(sandboxPorts.blob),
        SANDBOX_REDIRECT_URIS: `${appUrl}/api/auth/callback/esign`,
        SANDBOX_CORS_ORIGINS: appUrl,
      });
      await waitForOwnServer(sandbox, `http://127.0.0.1:${sandboxPorts.api}/_sandbox/stats`, SANDBOX_READY_LINE, 30_000);
      return sandbox;
    },
    async startApp(args, env, readyPath, timeoutMs) {
      const app = start("app", args, {
        AUTH_URL: appUrl,
        PORT: String(appPort),
        // These override any ESIGN_* in .env files: the app always talks to its own sandbox.
        ESIGN_USE_SANDBOX: "true",
        ESIGN_AUTH_URL: `http://localhost:${sandboxPorts.auth}`,
        ESIGN_API_URL: `http://127.0.0.1:${sandboxPorts.api}`,
        ESIGN_STORAGE_ORIGINS: `http://127.0.0.1:${sandboxPorts.blob}`,
        // The sandbox's operator, so the operator pages can be seen (docs/operators.md); yours replaces him.
        OPERATOR_EMAILS: process.env.OPERATOR_EMAILS || SANDBOX_OPERATOR_EMAIL,
        ...env,
      });
      await waitForOwnServer(app, `${appUrl}${readyPath}`, APP_READY_LINE, timeoutMs);
      return app;
    },
    async stopAll() {
      stopping = true;
      // The app first, so it never sees its sandbox go while it still serves; the sandbox then stops Azurite and
      // removes its blob directory.
      for (const child of [...running].reverse()) await child.stop(STOP_GRACE_MS);
    },
  };
}
