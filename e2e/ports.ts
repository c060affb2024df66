import { envPort } from "../scripts/lib/env-port";

/**
 * Where the e2e servers listen. Every Playwright worker has a slot of its own — a sandbox and the two apps —
 * so a spec reads only its own worker's sandbox counters and faults, as if it ran alone. Slot n listens on the
 * base ports + n × SLOT_STRIDE. The base ports are overridable so that two checkouts can run side by side.
 * The app must be reached as `localhost` (not 127.0.0.1): Next rewrites one to the other and the OAuth
 * redirect_uri must match exactly.
 */

const SLOT_STRIDE = 10;

/**
 * Workers, each with its own slot of servers. Set it with E2E_WORKERS, not Playwright's --workers: the config
 * starts one slot per worker before any test runs.
 */
export const workerCount = Math.max(1, Number(process.env.E2E_WORKERS || 3));

export type SlotPorts = ReturnType<typeof slotPorts>;

/** The ports of one worker's servers. */
export function slotPorts(slot: number) {
  const offset = slot * SLOT_STRIDE;
  return {
    app: envPort("E2E_APP_PORT", 3000) + offset,
    devClientApp: envPort("E2E_DEV_APP_PORT", 3001) + offset,
    auth: envPort("E2E_AUTH_PORT", 4000) + offset,
    api: envPort("E2E_API_PORT", 4001) + offset,
    blob: envPort("E2E_BLOB_PORT", 4002) + offset,
    /** An app with a wrong client secret, started by e2e/auth/sign-in-paths.spec.ts alone. */
    misconfiguredApp: envPort("E2E_MISCONFIGURED_APP_PORT", 4340) + offset,
  };
}

export function slotUrls(p: SlotPorts) {
  return {
    app: `http://localhost:${p.app}`,
    devClientApp: `http://localhost:${p.devClientApp}`,
    auth: `http://localhost:${p.auth}`,
    api: `http://127.0.0.1:${p.api}`,
    blob: `http://127.0.0.1:${p.blob}`,
    misconfiguredApp: `http://localhost:${p.misconfiguredApp}`,
  };
}

/** This process's slot: Playwright numbers its workers' slots 0 … workers-1; the runner process uses slot 0. */
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
if (slot >= workerCount) {
  throw new Error(`Playwright worker slot ${slot} has no servers: set E2E_WORKERS=${slot + 1} (or more) instead of --workers`);
}

export const ports = slotPorts(slot);
export const urls = slotUrls(ports);

/** Short enough that tests see several expiries, long enough for a sign-in to finish. */
export const ACCESS_TOKEN_TTL_SECONDS = 8;
