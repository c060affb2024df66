import { afterAll, beforeAll, beforeEach } from "vitest";
import { startSandbox, type RunningSandbox, type SandboxConfig, type StatsSnapshot } from "../../../sandbox/index";
import { workerPort } from "../../support/worker-port";

export const REDIRECT_URI = "http://localhost:3000/api/auth/callback/esign";

/** Test ports are 41xx (per worker: workerPort) so a developer's sandbox on the default 400x ports keeps running undisturbed. */
export function startTestSandbox(overrides: Partial<SandboxConfig> = {}): Promise<RunningSandbox> {
  return startSandbox({ authPort: workerPort(4100), apiPort: workerPort(4101), blobPort: workerPort(4102), ...overrides });
}

export async function resetSandbox(sandbox: RunningSandbox): Promise<void> {
  const response = await fetch(`${sandbox.apiUrl}/_sandbox/reset`, { method: "POST" });
  if (response.status !== 200) throw new Error(`reset failed with ${response.status}`);
}

/** A test sandbox for this file: started before its tests (handed to `started`), reset before each, stopped after. */
export function setUpTestSandbox(started: (sandbox: RunningSandbox) => void): void {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    started(sandbox);
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  beforeEach(async () => {
    await resetSandbox(sandbox!);
  });
}

export async function addFault(sandbox: RunningSandbox, fault: Record<string, unknown>): Promise<Response> {
  return fetch(`${sandbox.apiUrl}/_sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fault),
  });
}

/** PUT/POST a JSON body to an admin route and return the raw response. */
export async function adminSend(sandbox: RunningSandbox, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${sandbox.apiUrl}/_sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export async function setIdentityStyle(
  sandbox: RunningSandbox,
  settings: { style: "standard" | "identityserver"; accessTokenBytes?: number | null },
): Promise<void> {
  const response = await adminSend(sandbox, "PUT", "identity-style", settings);
  if (response.status !== 200) throw new Error(`identity-style answered ${response.status}: ${await response.text()}`);
}

export async function publishedJwks(sandbox: RunningSandbox): Promise<{ keys: { kid: string; kty: string; d?: string }[] }> {
  return (await fetch(`${sandbox.authUrl}/connect/jwks`)).json();
}

export async function sandboxStats(sandbox: RunningSandbox): Promise<Record<string, unknown> & StatsSnapshot> {
  return (await fetch(`${sandbox.apiUrl}/_sandbox/stats`)).json();
}

export async function refreshTokenStatus(sandbox: RunningSandbox, token: string): Promise<{ status: string; revokedAtEndpoint: boolean }> {
  return (await fetch(`${sandbox.apiUrl}/_sandbox/refresh-token-status?token=${encodeURIComponent(token)}`)).json();
}
