/**
 * Completes `next build`'s standalone output so that .next/standalone runs by itself, wherever it is copied:
 * Next leaves `.next/static` (hashed JS/CSS) and `public/` to the deployer, and a server without them serves
 * pages whose scripts 404.
 */
import { cpSync, existsSync, rmSync } from "node:fs";

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
console.log(`standalone server ready: ${STANDALONE} (start it with \`npm start\`, PORT/HOSTNAME honoured)`);
