import path from "node:path";
import { startStandaloneApp as start, type StandaloneApp } from "../../scripts/lib/standalone-app";
import { SERVER_LOG_DIR } from "../server-log-scan";
import { urls } from "../ports";
import { sessionStoreDir } from "../session-store-scan";

export type { StandaloneApp };

/** The sandbox-facing settings every app instance in the e2e run shares (as playwright.config.ts). */
export const sandboxEnv = {
  ESIGN_USE_SANDBOX: "true",
  ESIGN_AUTH_URL: urls.auth,
  ESIGN_API_URL: urls.api,
  ESIGN_STORAGE_ORIGINS: urls.blob,
};

/**
 * A standalone app instance whose output lands in .e2e-logs/, where the global teardown scans it. Its embedded
 * session store is a folder of its own by port (one server per folder; the teardown scans them all) unless `env`
 * names one. It stops without a readiness delay unless `env` sets one.
 */
export function startStandaloneApp(options: { dir: string; port: number; name: string; env: Record<string, string> }): Promise<StandaloneApp> {
  return start({
    ...options,
    // No load balancer watches these instances' readiness, so a stop need not wait the 5 s one would need to notice
    // (e2e/deploy/graceful-shutdown.spec.ts sets its own delay).
    env: { SESSION_STORE_DIR: sessionStoreDir(options.port), SHUTDOWN_READINESS_DELAY_MS: "0", ...options.env },
    logFile: path.join(SERVER_LOG_DIR, `${options.name}.log`),
  });
}

/** The JSON access lines an app instance wrote for requests with this id. */
export function accessLines(text: string, requestId: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === "request" && entry.requestId === requestId);
}
