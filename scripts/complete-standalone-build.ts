/**
 * Completes `next build`'s standalone output so that .next/standalone runs by itself, wherever it is copied:
 * Next leaves `.next/static` (hashed JS/CSS) and `public/` to the deployer, and a server without them serves
 * pages whose scripts 404. Also makes the embedded database's seed (lib/db/pglite-seed.ts), so that a server's
 * first start in an empty DATABASE_DIR skips PGlite's costly initdb.
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGLITE_START_PARAMS } from "@/lib/db/client";
import { createPgliteSeed, PGLITE_SEED_FILE } from "@/lib/db/pglite-seed";

const STANDALONE = ".next/standalone";

if (!existsSync(`${STANDALONE}/server.js`)) {
  console.error(`${STANDALONE}/server.js is missing: is output: "standalone" set in next.config.mjs?`);
  process.exit(1);
}
for (const [from, to] of [
  [".next/static", `${STANDALONE}/.next/static`],
  ["public", `${STANDALONE}/public`],
] as const) {
  if (!existsSync(from)) continue;
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}
const started = performance.now();
const seed = await createPgliteSeed(PGLITE_START_PARAMS);
// The project's .next (a server started from the project folder) and the standalone folder's (one started there).
for (const file of [PGLITE_SEED_FILE, path.join(STANDALONE, ".next", path.basename(PGLITE_SEED_FILE))]) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, seed);
}
console.log(`embedded database seed: ${(seed.length / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms`);
console.log(`standalone server ready: ${STANDALONE} (start it with \`npm start\`, PORT/HOSTNAME honoured)`);
