/**
 * One-command demo: the sandbox and the production build of the app, wired together, on loopback.
 * Builds only when the sources changed since the last build (scripts/lib/build-fingerprint.ts), saying what it does
 * and how long each step takes. Writes a random AUTH_SECRET to .env.local on first run so sessions survive restarts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { SANDBOX_OPERATOR_EMAIL } from "../sandbox/users";
import { ensureLocalAuthSecret } from "./lib/auth-secret";
import { buildFingerprint } from "./lib/build-fingerprint";
import { waitForHttp } from "./lib/child-process";

const APP_URL = "http://localhost:3000";
/** What the last build was made from, next to it; a build by other means changes BUILD_ID and so is not trusted. */
const STAMP = ".next/demo-build.json";
/** While the build prints nothing for this long, say it is still going. */
const HEARTBEAT_MS = 15_000;

type Stamp = { fingerprint: string; buildId: string; builtAt: string };

const log = (message: string) => console.log(`demo: ${message}`);
const since = (start: number) => {
  const seconds = Math.round((performance.now() - start) / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
};
const readJson = <T>(file: string): T | null => {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return null;
  }
};
const buildId = () => (existsSync(".next/BUILD_ID") ? readFileSync(".next/BUILD_ID", "utf8").trim() : null);

/**
 * Reuses the build when it was made from exactly these sources, else runs `npm run build`, relaying its output
 * and a heartbeat while it is quiet. Skips Next's own type check (~30 s): the demo runs the app, `npm test` checks it.
 */
async function ensureBuild(): Promise<void> {
  const checking = performance.now();
  const fingerprint = buildFingerprint(process.cwd());
  const stamp = readJson<Stamp>(STAMP);
  const current = stamp?.fingerprint === fingerprint && stamp.buildId === buildId() && existsSync(".next/standalone/server.js");
  if (current) {
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
  writeFileSync(STAMP, JSON.stringify({ fingerprint, buildId: buildId() ?? "", builtAt: new Date().toISOString() } satisfies Stamp));
  log(`built in ${since(started)}`);
}

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

const demoStarted = performance.now();
await ensureBuild();
if (stopping) process.exit(0);

let starting = performance.now();
log("starting the sandbox (auth :4000, API :4001, storage :4002), a few seconds…");
children.push(start("sandbox", process.execPath, ["--import", "tsx", "sandbox/main.ts"], {}));
await waitForHttp("http://localhost:4001/_sandbox/stats", 30_000);
log(`sandbox ready in ${since(starting)}`);
starting = performance.now();
log("starting the app on :3000, a few seconds…");
// The standalone server, as deployed; readable log lines instead of JSON for a person watching the terminal.
children.push(
  start("app", process.execPath, [".next/standalone/server.js"], {
    ESIGN_USE_SANDBOX: "true",
    AUTH_URL: APP_URL,
    AUTH_SECRET: authSecret,
    PORT: "3000",
    HOSTNAME: "127.0.0.1",
    LOG_FORMAT: "pretty",
    // The sandbox's operator, so the demo shows the operator pages too (docs/operators.md); yours replaces him.
    OPERATOR_EMAILS: process.env.OPERATOR_EMAILS || SANDBOX_OPERATOR_EMAIL,
  }),
);
await waitForHttp(`${APP_URL}/api/auth/providers`, 30_000);
log(`app ready in ${since(starting)}`);

console.log(`
  eSign partner demo is running: ${APP_URL} (started in ${since(demoStarted)})

  Sign in with one of the sandbox's users:
    alice@example.com / alice-password   (has a customer account)
    bob@example.com   / bob-password     (no customer account)
    oscar@example.com / oscar-password   (an operator: ${APP_URL}/operator)

  Press Ctrl+C to stop.
`);
