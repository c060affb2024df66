/**
 * One-command demo: the sandbox and the production build of the app, wired together, on loopback.
 * Builds only when the sources changed since the last build (scripts/lib/build-fingerprint.ts), saying what it does
 * and how long each step takes. Writes a random AUTH_SECRET to .env.local on first run so sessions survive restarts.
 * Refuses to start while one of its ports is taken (named, with the variable that moves it), and Ctrl+C returns
 * only once the app and the sandbox have exited, so the next `npm run demo` can start at once.
 * Ports: PORT (the app, 3000), SANDBOX_AUTH_PORT / SANDBOX_API_PORT / SANDBOX_BLOB_PORT (4000 / 4001 / 4002).
 */
import { spawn } from "node:child_process";
import { ensureLocalAuthSecret } from "./lib/auth-secret";
import { buildFingerprint } from "./lib/build-fingerprint";
import { isDemoBuildCurrent, readDemoBuildStamp, writeDemoBuildStamp } from "./lib/demo-build-stamp";
import { localStack } from "./lib/local-stack";

/** While the build prints nothing for this long, say it is still going. */
const HEARTBEAT_MS = 15_000;

const log = (message: string) => console.log(`demo: ${message}`);
const since = (start: number) => {
  const seconds = Math.round((performance.now() - start) / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
};

/**
 * Reuses the build when it was made from exactly these sources, else runs `npm run build`, relaying its output
 * and a heartbeat while it is quiet. Skips Next's own type check (~30 s): the demo runs the app, `npm test` checks it.
 */
async function ensureBuild(): Promise<void> {
  const checking = performance.now();
  const fingerprint = buildFingerprint(process.cwd());
  const stamp = readDemoBuildStamp();
  if (isDemoBuildCurrent(stamp, fingerprint)) {
    log(`reusing the build of ${stamp.builtAt}: nothing changed since (checked in ${since(checking)})`);
    return;
  }
  log(`${stamp ? "the sources changed since the last build" : "no build yet"}: building the app, under a minute on a quiet 2-core machine, a few minutes on a busy one…`);
  const started = performance.now();
  let lastOutput = started;
  const build = spawn("npm", ["run", "build"], { env: { ...process.env, SKIP_BUILD_TYPECHECK: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [build.stdout, build.stderr]) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      lastOutput = performance.now();
      for (const line of chunk.split("\n")) if (line.trim()) console.log(`  build | ${line}`);
    });
  }
  const heartbeat = setInterval(() => {
    if (performance.now() - lastOutput >= HEARTBEAT_MS) log(`still building… ${since(started)} so far`);
  }, HEARTBEAT_MS);
  const code = await new Promise<number | null>((resolve) => build.once("exit", resolve));
  clearInterval(heartbeat);
  if (stopping) process.exit(0);
  if (code !== 0) {
    log(`the build failed (exit ${code}) after ${since(started)}: see its output above`);
    process.exit(1);
  }
  // The fingerprint taken before the build: a file edited while it ran makes the next start build again.
  writeDemoBuildStamp(fingerprint);
  log(`built in ${since(started)}`);
}

// The standalone server listens on loopback only.
const stack = localStack("npm run demo", "127.0.0.1", (name, how) => {
  console.error(`demo: ${name} exited (${how}); stopping`);
  void stop(1);
});
let stopping = false;

/** Returns to the prompt only once the app and the sandbox have exited: a next start finds their ports free. */
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log("stopping the app and the sandbox…");
  await stack.stopAll();
  log("stopped");
  process.exit(code);
}

// The standalone server reads .env files from its own folder, not the checkout: pass the secret on.
const authSecret = ensureLocalAuthSecret((message) => console.log(`demo: ${message}`));
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

const demoStarted = performance.now();
// Before a build that may take minutes, and again after it: a port taken meanwhile is named, not answered for.
await stack.assertPortsFree();
await ensureBuild();
if (stopping) process.exit(0);
await stack.assertPortsFree();

try {
  let starting = performance.now();
  log("starting the sandbox, a few seconds…");
  await stack.startSandbox();
  log(`sandbox ready in ${since(starting)}`);
  starting = performance.now();
  log(`starting the app on ${stack.appUrl}, a few seconds…`);
  // The standalone server, as deployed; readable log lines instead of JSON for a person watching the terminal.
  await stack.startApp(
    [".next/standalone/server.js"],
    {
      AUTH_SECRET: authSecret,
      HOSTNAME: "127.0.0.1",
      LOG_FORMAT: "pretty",
      // No balancer probes a developer's machine: Ctrl+C stops the app at once instead of answering 503 for 5 s.
      SHUTDOWN_READINESS_DELAY_MS: "0",
    },
    "/api/auth/providers",
    30_000,
  );
  log(`app ready in ${since(starting)}`);
  if (!stopping) console.log(`
  eSign partner demo is running: ${stack.appUrl} (started in ${since(demoStarted)})

  Sign in with one of the sandbox's users:
    alice@example.com / alice-password   (has a customer account)
    bob@example.com   / bob-password     (no customer account)
    oscar@example.com / oscar-password   (an operator: ${stack.appUrl}/operator)

  Press Ctrl+C to stop.
  `);
} catch (error) {
  // Not after Ctrl+C: then the servers stopping is what ended the wait.
  if (!stopping) console.error(`demo: ${error instanceof Error ? error.message : String(error)}; stopping`);
  await stop(1);
}
