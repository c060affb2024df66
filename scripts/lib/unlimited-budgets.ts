import { LIMIT_NAMES, limitEnvKey } from "../../lib/rate-limit/policies";

/**
 * Every budget too large to meet (RATE_LIMIT_<NAME>), for suites and benchmarks that send one user's requests by the
 * thousand on purpose: the fuzz properties check answers to input, the load benchmarks measure throughput, and both
 * would otherwise get 429s after the first few hundred. The limiter still counts each request. The budgets
 * themselves are tested in tests/unit/rate-limited-routes.test.ts and rate-limiter.test.ts.
 */
export const UNLIMITED_BUDGETS: Record<string, string> = Object.fromEntries(LIMIT_NAMES.map((name) => [limitEnvKey(name), "1000000000/1"]));
