/** The fuzz suites' own ports (45xx), so they never collide with the contract tests (41xx) or e2e. */
export const FUZZ_SANDBOX_PORTS = { authPort: 4500, apiPort: 4501, blobPort: 4502 } as const;

export const FUZZ_AUTH_URL = `http://localhost:${FUZZ_SANDBOX_PORTS.authPort}`;
export const FUZZ_API_URL = `http://localhost:${FUZZ_SANDBOX_PORTS.apiPort}`;
