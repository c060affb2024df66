import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { migratePgliteDatabase } from "@/lib/db/migrate";

/**
 * A migrated, empty embedded database, made once by `npm run build` (scripts/complete-standalone-build.ts) beside
 * the build id, in `.next` of the project and of the standalone folder. PGlite's first start in an empty folder
 * runs initdb in WebAssembly: ~800 MiB peak RSS that a WASM heap never gives back, and 10 s or more of CPU.
 * Starting from this archive instead takes a fraction of that (docs/decisions/011-pglite-and-drizzle.md).
 */
export const PGLITE_SEED_FILE = path.join(process.cwd(), ".next", "pglite-seed.tar.gz");

/** Builds the seed: a fresh in-memory PGlite with every migration applied, dumped as a gzipped tarball. */
export async function createPgliteSeed(startParams: string[]): Promise<Buffer> {
  const client = await PGlite.create({ startParams });
  try {
    await migratePgliteDatabase(client);
    const dump = await client.dumpDataDir("gzip");
    return Buffer.from(await dump.arrayBuffer());
  } finally {
    await client.close();
  }
}

/**
 * The seed to start an empty data folder from, when the working folder holds one from `npm run build` (`next dev`
 * writes none). `npm test` builds before Vitest, so the unit tests' embedded databases start from it there too.
 */
export function readPgliteSeed(dataDir: string): Blob | undefined {
  if (existsSync(path.join(dataDir, "PG_VERSION")) || !existsSync(PGLITE_SEED_FILE)) return undefined;
  return new Blob([readFileSync(PGLITE_SEED_FILE)]);
}
