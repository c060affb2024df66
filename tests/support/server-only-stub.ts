// Intentionally empty: stands in for the `server-only` guard under Vitest.
export {};
