/**
 * Points the app's configuration (read by lib/env.ts on first use) at the auth server `authUrl`, as the partner
 * client, with an API address where nothing listens; `more` adds or overrides variables (client secret, session
 * store, Redis…). Set before the first import of an app module that reads the configuration.
 */
export function setAppEnv(authUrl: string, more: Record<string, string> = {}): void {
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    ESIGN_AUTH_URL: authUrl,
    ESIGN_API_URL: "http://127.0.0.1:1",
    ESIGN_CLIENT_ID: "partner-app",
    ...more,
  });
}
