/**
 * The development loop in one command: the sandbox and `next dev` (hot reload) together; Ctrl-C stops both, and
 * returns once both have exited.
 * A fresh clone needs no setup: a local AUTH_SECRET is written to .env.local on first run, as `npm run demo` does.
 * Ports: PORT (the app, 3000), SANDBOX_AUTH_PORT / SANDBOX_API_PORT / SANDBOX_BLOB_PORT (4000 / 4001 / 4002).
 */
import { createRequire } from "node:module";
import { ensureLocalAuthSecret } from "./lib/auth-secret";
import { localStack } from "./lib/local-stack";

const log = (message: string) => console.log(`dev: ${message}`);

// Every interface, as `next dev` listens.
const stack = localStack("npm run dev", undefined, (name, how) => {
  console.error(`dev: ${name} exited (${how}); stopping`);
  void stopAll(1);
});
await stack.assertPortsFree();

const authSecret = ensureLocalAuthSecret(log);
let stopping = false;

/** Returns to the prompt only once the app and the sandbox have exited: a next start finds their ports free. */
async function stopAll(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await stack.stopAll();
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stopAll(0));

try {
  await stack.startSandbox();
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  await stack.startApp([nextBin, "dev", "--port", new URL(stack.appUrl).port], { AUTH_SECRET: authSecret }, "/api/health", 120_000);
  if (!stopping) console.log(`
  eSign partner, development: ${stack.appUrl} (hot reload: edits show up without a restart)

  Sign in as alice@example.com / alice-password (has a customer account)
          or bob@example.com / bob-password     (no customer account)
          or oscar@example.com / oscar-password (an operator: ${stack.appUrl}/operator)

  Press Ctrl+C to stop the app and the sandbox.
  `);
} catch (error) {
  // Not after Ctrl+C: then the servers stopping is what ended the wait.
  if (!stopping) console.error(`dev: ${error instanceof Error ? error.message : String(error)}; stopping`);
  await stopAll(1);
}
