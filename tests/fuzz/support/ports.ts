import { workerPort } from "../../support/worker-port";

/** The fuzz suites' own ports (45xx, per worker), so they never collide with the contract tests (41xx) or e2e. */
export const FUZZ_SANDBOX_PORTS = { authPort: workerPort(4500), apiPort: workerPort(4501), blobPort: workerPort(4502) } as const;

export const FUZZ_AUTH_URL = `http://localhost:${FUZZ_SANDBOX_PORTS.authPort}`;
export const FUZZ_API_URL = `http://localhost:${FUZZ_SANDBOX_PORTS.apiPort}`;
