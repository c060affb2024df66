import { createWriteStream } from "node:fs";
import path from "node:path";
import { startProcess, type RunningProcess } from "../../scripts/lib/child-process";
import { SERVER_LOG_DIR } from "../server-log-scan";
import { urls } from "../ports";

/** The sandbox-facing settings every app instance in the e2e run shares (as playwright.config.ts). */
export const sandboxEnv = {
  ESIGN_USE_SANDBOX: "true",
  ESIGN_AUTH_URL: urls.auth,
  ESIGN_API_URL: urls.api,
  ESIGN_STORAGE_ORIGINS: urls.blob,
};

export type StandaloneApp = RunningProcess & { url: string; logFile: string };

/**
 * Starts `node server.js` from a standalone folder the way a deployment does: NODE_ENV=production, PORT and
 * HOSTNAME, and nothing from this process's environment but PATH. Its output goes to .e2e-logs/, where the
 * global teardown scans it for secrets. Resolves once /api/health answers.
 */
export async function startStandaloneApp(options: {
  dir: string;
  port: number;
  name: string;
  env: Record<string, string>;
}): Promise<StandaloneApp> {
  const logFile = path.join(SERVER_LOG_DIR, `${options.name}.log`);
  const log = createWriteStream(logFile, { flags: "a" });
  const dir = path.resolve(options.dir);
  const running = startProcess(options.name, process.execPath, [path.join(dir, "server.js")], {
    cwd: dir,
    env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(options.port), HOSTNAME: "127.0.0.1", ...options.env },
  });
  // Piped whole, not line by line: a JSON line split across chunks must stay one line in the file.
  running.child.stdout?.pipe(log, { end: false });
  running.child.stderr?.pipe(log, { end: false });
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (running.child.exitCode !== null) throw new Error(`${options.name} exited with ${running.child.exitCode}; see ${logFile}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${options.name} did not answer /api/health within 30 s; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    ...running,
    url,
    logFile,
    async stop(graceMs?: number) {
      await running.stop(graceMs);
      await new Promise((r) => log.end(r));
    },
  };
}

/** The JSON access lines an app instance wrote for requests with this id. */
export function accessLines(text: string, requestId: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === "request" && entry.requestId === requestId);
}
