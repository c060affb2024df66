/**
 * One-command demo: the sandbox and the production build of the app, wired together, on loopback.
 * Writes a random AUTH_SECRET to .env.local on first run so sessions survive restarts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { ensureLocalAuthSecret } from "./lib/auth-secret";
import { waitForHttp } from "./lib/child-process";

const APP_URL = "http://localhost:3000";

function start(name: string, command: string, args: string[], env: Record<string, string>): ChildProcess {
  // Own process group, so stopping the demo also stops `next start`'s forked server.
  const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env }, detached: true });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`demo: ${name} exited (${signal ?? code}); stopping`);
      stop(1);
    }
  });
  return child;
}

let stopping = false;
const children: ChildProcess[] = [];

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
  setTimeout(() => process.exit(code), 1500).unref();
}

// The standalone server reads .env files from its own folder, not the checkout: pass the secret on.
const authSecret = ensureLocalAuthSecret((message) => console.log(`demo: ${message}`));
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

children.push(start("sandbox", process.execPath, ["--import", "tsx", "sandbox/main.ts"], {}));
await waitForHttp("http://localhost:4001/_sandbox/stats", 30_000);
// The standalone server, as deployed; readable log lines instead of JSON for a person watching the terminal.
children.push(
  start("app", process.execPath, [".next/standalone/server.js"], {
    ESIGN_USE_SANDBOX: "true",
    AUTH_URL: APP_URL,
    AUTH_SECRET: authSecret,
    PORT: "3000",
    HOSTNAME: "127.0.0.1",
    LOG_FORMAT: "pretty",
  }),
);
await waitForHttp(`${APP_URL}/api/auth/providers`, 30_000);

console.log(`
  eSign partner demo is running: ${APP_URL}

  Sign in with one of the sandbox's users:
    alice@example.com / alice-password   (has a customer account)
    bob@example.com   / bob-password     (no customer account)

  Press Ctrl+C to stop.
`);
