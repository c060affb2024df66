/**
 * Where the e2e servers listen. Overridable so that two checkouts can run their suites side by side.
 * The app must be reached as `localhost` (not 127.0.0.1): Next rewrites one to the other and the
 * OAuth redirect_uri must match exactly.
 */
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const ports = {
  app: port("E2E_APP_PORT", 3000),
  devClientApp: port("E2E_DEV_APP_PORT", 3001),
  auth: port("E2E_AUTH_PORT", 4000),
  api: port("E2E_API_PORT", 4001),
  blob: port("E2E_BLOB_PORT", 4002),
  /** An app with a wrong client secret, started by e2e/auth/sign-in-paths.spec.ts alone. */
  misconfiguredApp: port("E2E_MISCONFIGURED_APP_PORT", 4310),
};

export const urls = {
  app: `http://localhost:${ports.app}`,
  devClientApp: `http://localhost:${ports.devClientApp}`,
  auth: `http://localhost:${ports.auth}`,
  api: `http://127.0.0.1:${ports.api}`,
  blob: `http://127.0.0.1:${ports.blob}`,
  misconfiguredApp: `http://localhost:${ports.misconfiguredApp}`,
};

/** Short enough that tests see several expiries, long enough for a sign-in to finish. */
export const ACCESS_TOKEN_TTL_SECONDS = 8;
