import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside a React Server environment; unit tests run server modules directly.
      "server-only": path.resolve(import.meta.dirname, "tests/support/server-only-stub.ts"),
      // next-auth's ESM imports "next/server" without an extension, which Node's resolver refuses outside Next.
      "next/server": path.resolve(import.meta.dirname, "node_modules/next/server.js"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts", "lib/**/*.test.ts", "sandbox/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three files at a time on two cores: many wait on servers and timers (70 s against 83 s with two). Files that
    // start servers take ports per worker (tests/support/worker-port.ts).
    maxWorkers: 3,
    // Through Vite rather than Node, so that the "next/server" alias above reaches next-auth's own imports.
    server: { deps: { inline: ["next-auth"] } },
  },
});
