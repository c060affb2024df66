import { createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { assertPortFree, startProcess, waitForHttp, type RunningProcess } from "./child-process";

export type StandaloneApp = RunningProcess & { url: string; logFile: string; exitCode(): Promise<number | null> };

/**
 * An embedded database folder per port, kept between runs: one folder serves one process, so instances started
 * side by side must not share the default. Set DATABASE_URL (or DATABASE_DIR) in `env` to share one database.
 */
export function embeddedDatabaseDir(port: number): string {
  return path.join(tmpdir(), `esign-app-db-${port}`);
}

/**
 * Starts `node server.js` from a standalone folder the way a deployment does: NODE_ENV=production, PORT and
 * HOSTNAME, and nothing from this process's environment but PATH. Its output is appended to `logFile`, whole
 * (a JSON line split across pipe chunks stays one line). Resolves once /api/health answers.
 */
export async function startStandaloneApp(options: { dir: string; port: number; name: string; logFile: string; env: Record<string, string> }): Promise<StandaloneApp> {
  await assertPortFree(options.port);
  const log = createWriteStream(options.logFile, { flags: "a" });
  const dir = path.resolve(options.dir);
  const running = startProcess(options.name, process.execPath, [path.join(dir, "server.js")], {
    cwd: dir,
    env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(options.port), HOSTNAME: "127.0.0.1", DATABASE_DIR: embeddedDatabaseDir(options.port), ...options.env },
  });
  running.child.stdout?.pipe(log, { end: false });
  running.child.stderr?.pipe(log, { end: false });
  const exited = new Promise<number | null>((resolve) => running.child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitForHttp(`${url}/api/health`, 30_000, running.child, (status) => status >= 200 && status < 300);
  } catch (error) {
    throw new Error(`${options.name}: ${(error as Error).message}; see ${options.logFile}`, { cause: error });
  }
  return {
    ...running,
    url,
    logFile: options.logFile,
    exitCode: () => exited,
    async stop(graceMs?: number) {
      await running.stop(graceMs);
      await new Promise((r) => log.end(r));
    },
  };
}
