/**
 * `npm run db:migrate`: applies the committed migrations (lib/db/migrations) to the configured database and exits,
 * for operators who migrate as a separate deployment step. The server also migrates at start-up, so this is
 * optional. Reads DATABASE_URL / DATABASE_DIR the way `next start` does (.env files, the process environment wins).
 * With PGlite it must run while no server uses the folder (the folder lock refuses it otherwise).
 */
import nextEnv from "@next/env";
import { openDatabase } from "@/lib/db/client";
import { ConfigError, parseDatabaseConfig } from "@/lib/env";

nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production", { info: () => {}, error: console.error });

try {
  const config = parseDatabaseConfig(process.env);
  const started = performance.now();
  const database = await openDatabase(config);
  await database.close();
  console.log(`Migrations applied to ${database.kind === "pglite" ? "the embedded database in" : "PostgreSQL at"} ${database.where} in ${Math.round(performance.now() - started)} ms`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
