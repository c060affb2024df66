/**
 * Vitest runs several test files at once, one per worker (VITEST_POOL_ID 1, 2, …), and several files start servers on
 * the same fixed ports (every contract test's sandbox on 4100–4102). Worker 1 keeps the documented port; each
 * further worker adds 1000, so two files never bind one port. Nothing in the tests listens on 5000 and up.
 */
export function workerPort(port: number): number {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return port + 1000 * (worker - 1);
}
