/**
 * The port named by the environment variable `name`, or `fallback` when it is unset or empty: every listener the
 * tests, benchmarks and dev scripts start has a default that a busy machine can move.
 */
export function envPort(name: string, fallback: number): number {
  return Number(process.env[name] || fallback);
}
