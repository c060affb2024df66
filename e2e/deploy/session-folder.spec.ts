import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { test, expect } from "@playwright/test";
import { sessionStoreDir } from "../session-store-scan";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";
import { envPort } from "../../scripts/lib/env-port";

/** Two standalone servers of the build on one embedded session folder, no REDIS_URL. No browser needed. */
const FIRST_PORT = envPort("E2E_SESSION_FOLDER_PORT", 4724);
const SECOND_PORT = envPort("E2E_SESSION_FOLDER_SECOND_PORT", 4725);
const AUTH_SECRET = "e2e-only-session-folder-secret-0123456789abcdef";

const settings = (appPort: number, dir: string) => ({
  dir: ".next/standalone",
  port: appPort,
  name: `session-folder-${appPort}`,
  env: { ...sandboxEnv, AUTH_URL: `http://localhost:${appPort}`, AUTH_SECRET, SESSION_STORE_DIR: dir },
});

test("a second server on one session folder refuses to start, naming REDIS_URL; an unreadable session file is skipped and logged", async () => {
  const dir = sessionStoreDir(FIRST_PORT);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "sessions"), { recursive: true });
  // A link to itself: listed like a session file, but reading it fails (ELOOP).
  symlinkSync(path.join(dir, "sessions", "unreadable"), path.join(dir, "sessions", "unreadable"));
  let first: StandaloneApp | undefined;
  try {
    first = await startStandaloneApp(settings(FIRST_PORT, dir));
    const log = () => readFileSync(first!.logFile, "utf8");
    await expect.poll(log).toMatch(/skipped an unreadable session file \(sessions:unreadable\)/);
    // The store works all the same.
    expect((await fetch(`${first.url}/api/health/ready`)).status).toBe(200);
    await expect.poll(async () => ((await (await fetch(`${first!.url}/api/health/ready`)).json()) as { dependencies: { name: string; state: string }[] }).dependencies)
      .toContainEqual(expect.objectContaining({ name: "session-store", state: "ok" }));

    const second = startStandaloneApp(settings(SECOND_PORT, dir));
    await expect(second).rejects.toThrow(/exited with 1/);
    const refusal = readFileSync(path.join(path.dirname(first.logFile), `session-folder-${SECOND_PORT}.log`), "utf8");
    expect(refusal).toMatch(new RegExp(`Not starting: The session folder ${dir.replace(/[/\\]/g, ".")} is in use by process \\d+ .*REDIS_URL`));
    // The first one still serves.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
  } finally {
    await first?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
