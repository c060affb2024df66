/** Test-only secrets of the suite's app servers (playwright.config.ts); these servers exist for one test run. */
export const APP_SECRET = "e2e-only-auth-secret-0123456789abcdef0123456789";
export const DEV_APP_SECRET = "e2e-only-dev-client-secret-0123456789abcdef012345";
