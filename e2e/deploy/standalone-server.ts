import path from "node:path";
import { startStandaloneApp as start, type StandaloneApp } from "../../scripts/lib/standalone-app";
import { SERVER_LOG_DIR } from "../server-log-scan";
import { urls } from "../ports";

export type { StandaloneApp };

/** The sandbox-facing settings every app instance in the e2e run shares (as playwright.config.ts). */
export const sandboxEnv = {
  ESIGN_USE_SANDBOX: "true",
  ESIGN_AUTH_URL: urls.auth,
  ESIGN_API_URL: urls.api,
  ESIGN_STORAGE_ORIGINS: urls.blob,
};

/** A standalone app instance whose output lands in .e2e-logs/, where the global teardown scans it. */
export function startStandaloneApp(options: { dir: string; port: number; name: string; env: Record<string, string> }): Promise<StandaloneApp> {
  return start({ ...options, logFile: path.join(SERVER_LOG_DIR, `${options.name}.log`) });
}

/** The JSON access lines an app instance wrote for requests with this id. */
export function accessLines(text: string, requestId: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === "request" && entry.requestId === requestId);
}
