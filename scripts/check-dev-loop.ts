/**
 * Proves the development loop end to end, as a newcomer would use it: `npm run dev` refuses a taken port with
 * a message naming it; otherwise it brings up the sandbox and `next dev`, a person can sign in, an edit to a
 * page shows up in the open tab without a reload, and Ctrl-C (SIGINT to the terminal's process group) leaves
 * no process and no port behind. Run it in a checkout whose ports are free: `npm run check:dev` (ports moved with the
 * variables `npm run dev` reads).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { chromium } from "@playwright/test";
import { chromiumArgs, chromiumExecutablePath } from "../e2e/chromium-path";
import { users } from "../e2e/fixtures/users";
import { waitForHttp } from "./lib/child-process";
import { envPort } from "./lib/env-port";

// The same variables `npm run dev` reads, so the check can run beside servers on the default ports.
const APP_PORT = envPort("PORT", 3000);
const SANDBOX_PORTS = [envPort("SANDBOX_AUTH_PORT", 4000), envPort("SANDBOX_API_PORT", 4001), envPort("SANDBOX_BLOB_PORT", 4002)];
const APP_URL = `http://localhost:${APP_PORT}`;
const EDITED_PAGE = "app/page.tsx";
const EDITED_TEXT = "credentials stay with the service.";

function fail(message: string): never {
  console.error(`check:dev FAILED: ${message}`);
  process.exit(1);
}

/** `npm run dev` as a terminal runs it: its own process group, output kept for the messages. */
function startDev(): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = spawn("npm", ["run", "dev"], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** The exit code, or the signal that ended it. */
const exitOf = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode ?? child.signalCode)
    : new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));

/** Every live process below `root` (from /proc), so that what Ctrl-C must stop can be checked afterwards. */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited while we looked
    }
  }
  const found: number[] = [];
  let frontier = [root];
  while (frontier.length > 0) {
    const next = [...parentOf].filter(([, parent]) => frontier.includes(parent)).map(([pid]) => pid);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** Alive and not a zombie (a zombie holds no port or memory; its parent or init reaps it). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port }, () => probe.close(() => resolve(true)));
  });

// 1. A taken port: refused at once, with the port and the way out.
const apiPort = SANDBOX_PORTS[1];
const blocker = createServer().listen({ port: apiPort, host: "127.0.0.1" });
await new Promise((resolve) => blocker.once("listening", resolve));
const refused = startDev();
const refusedCode = await exitOf(refused.child);
blocker.close();
if (refusedCode === 0) fail(`npm run dev started although port ${apiPort} was taken`);
if (!refused.output().includes(`port ${apiPort} (the sandbox's API) is already in use`)) fail(`no clear port message:\n${refused.output()}`);
console.log(`check:dev: a taken port stops npm run dev with: ${refused.output().split("\n").find((l) => l.includes(`port ${apiPort}`))?.trim()}`);

// 2. The loop itself. Whatever happens, step 3 still presses Ctrl-C, so a failed check leaves nothing running.
const started = Date.now();
const dev = startDev();
const original = readFileSync(EDITED_PAGE, "utf8");
let loopError: unknown;
const browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
try {
  await waitForHttp(`${APP_URL}/api/health`, 180_000, dev.child, (status) => status === 200);
  console.log(`check:dev: app and sandbox up in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const page = await browser.newPage({ baseURL: APP_URL });
  // next dev compiles each route on its first request: minutes on a busy two-core machine.
  page.setDefaultTimeout(180_000);
  await page.goto("/");
  await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
  await page.getByLabel("Email").fill(users.alice.email);
  await page.getByLabel("Password").fill(users.alice.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Allow" }).click({ noWaitAfter: true });
  await page.waitForURL("**/account");
  await page.getByTestId("signed-in-user").filter({ hasText: users.alice.name }).waitFor();
  console.log(`check:dev: signed in as ${users.alice.name}`);

  await page.goto("/");
  let loads = 0;
  page.on("load", () => (loads += 1));
  const marker = `Edited at ${new Date().toISOString()}.`;
  if (!original.includes(EDITED_TEXT)) throw new Error(`${EDITED_PAGE} no longer contains "${EDITED_TEXT}"`);
  const edited = Date.now();
  writeFileSync(EDITED_PAGE, original.replace(EDITED_TEXT, `${EDITED_TEXT} ${marker}`));
  await page.getByText(marker).waitFor();
  if (loads > 0) throw new Error("the edit showed up only after a full page reload");
  console.log(`check:dev: an edit to ${EDITED_PAGE} showed up in the open tab after ${((Date.now() - edited) / 1000).toFixed(1)} s, without a reload`);
} catch (error) {
  loopError = error;
  console.error("check:dev: the loop failed; pressing Ctrl-C anyway:", error);
} finally {
  writeFileSync(EDITED_PAGE, original);
  await browser.close();
}

// 3. Ctrl-C: the terminal sends SIGINT to the whole foreground process group.
const tree = descendants(dev.child.pid!);
process.kill(-dev.child.pid!, "SIGINT");
const code = await Promise.race([exitOf(dev.child), new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 30_000))]);
const left = tree.filter(isRunning);
const takenPorts: number[] = [];
for (const port of [APP_PORT, ...SANDBOX_PORTS]) if (!(await portIsFree(port))) takenPorts.push(port);
if (left.length > 0) fail(`processes left after Ctrl-C: ${left.join(", ")}`);
if (takenPorts.length > 0) fail(`ports still taken after Ctrl-C: ${takenPorts.join(", ")}`);
console.log(`check:dev: Ctrl-C stopped all ${tree.length} processes (npm ended by ${code}); none left, ports ${APP_PORT} and ${SANDBOX_PORTS.join(", ")} free`);
if (loopError) fail(loopError instanceof Error ? loopError.message : String(loopError));
console.log("check:dev: passed");
