import path from "node:path";
import { assertPortFree, startProcess, waitForHttp, waitForPort, type RunningProcess } from "./child-process";
import { embeddedDatabaseDir } from "./standalone-app";

/** Where one sandbox listens; the app reaches auth as `localhost` (redirects), API and blob on 127.0.0.1. */
export type SandboxPorts = { auth: number; api: number; blob: number };

export type SandboxUrls = { auth: string; api: string; blob: string };

export const sandboxUrls = (ports: SandboxPorts): SandboxUrls => ({
  auth: `http://localhost:${ports.auth}`,
  api: `http://127.0.0.1:${ports.api}`,
  blob: `http://127.0.0.1:${ports.blob}`,
});

/**
 * The sandbox as a child process (`node --import tsx sandbox/main.ts`: no launcher in between, so stopping
 * it waits for the sandbox's own clean-up), ready once its admin route answers.
 */
export async function startSandboxProcess(
  ports: SandboxPorts,
  options: { appUrls: string[]; accessTokenTtlSeconds?: number; log?: (line: string) => void },
): Promise<RunningProcess & { urls: SandboxUrls }> {
  const urls = sandboxUrls(ports);
  const running = startProcess("sandbox", process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    log: options.log,
    env: {
      ...process.env,
      SANDBOX_AUTH_PORT: String(ports.auth),
      SANDBOX_API_PORT: String(ports.api),
      SANDBOX_BLOB_PORT: String(ports.blob),
      ...(options.accessTokenTtlSeconds ? { SANDBOX_ACCESS_TOKEN_TTL: String(options.accessTokenTtlSeconds) } : {}),
      SANDBOX_REDIRECT_URIS: options.appUrls.map((u) => `${u}/api/auth/callback/esign`).join(","),
      SANDBOX_CORS_ORIGINS: options.appUrls.join(","),
    },
  });
  await waitForHttp(`${urls.api}/_sandbox/stats`, 60_000, running.child);
  return { ...running, urls };
}

export type AppInstanceOptions = {
  port: number;
  /** The public URL (the load balancer's when there is one). */
  authUrl: string;
  sandbox: SandboxUrls;
  /** Shared by every instance: sessions are encrypted with it. */
  authSecret: string;
  /** Shared by every instance, so a Server Action rendered by one can be posted to another. */
  serverActionsKey: string;
  redisUrl?: string;
  requestTimeoutMs?: number;
  /** V8 heap cap (--max-old-space-size), as the systemd unit and the Dockerfile set it; none when absent. */
  heapCapMiB?: number;
  /** More environment for the instance (metrics port, tracing endpoint, …). */
  env?: Record<string, string>;
  log?: (line: string) => void;
};

/** One standalone server of the production build (made beforehand by `npm run build`), in its own process group. */
export async function startAppInstance(options: AppInstanceOptions): Promise<RunningProcess & { url: string }> {
  await assertPortFree(options.port);
  const heapCap = options.heapCapMiB ? [`--max-old-space-size=${options.heapCapMiB}`] : [];
  const running = startProcess(`app:${options.port}`, process.execPath, [...heapCap, path.resolve(".next/standalone/server.js")], {
    log: options.log,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(options.port),
      HOSTNAME: "127.0.0.1",
      ESIGN_USE_SANDBOX: "true",
      ESIGN_AUTH_URL: options.sandbox.auth,
      ESIGN_API_URL: options.sandbox.api,
      ESIGN_STORAGE_ORIGINS: options.sandbox.blob,
      ...(options.requestTimeoutMs ? { ESIGN_REQUEST_TIMEOUT_MS: String(options.requestTimeoutMs) } : {}),
      AUTH_SECRET: options.authSecret,
      AUTH_URL: options.authUrl,
      NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: options.serverActionsKey,
      REDIS_URL: options.redisUrl ?? "",
      // Its own embedded database unless `env` names a shared one (DATABASE_URL): one folder serves one process.
      DATABASE_DIR: embeddedDatabaseDir(options.port),
      ...options.env,
    },
  });
  const url = `http://localhost:${options.port}`;
  await waitForPort(options.port, 60_000, running.child);
  await waitForHttp(`http://127.0.0.1:${options.port}/api/auth/providers`, 60_000, running.child);
  return { ...running, url };
}
