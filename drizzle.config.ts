import { defineConfig } from "drizzle-kit";

/** For `npm run db:generate` only: it writes SQL migrations from lib/db/schema.ts; the app applies them (lib/db/migrate.ts). */
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema.ts",
  out: "./lib/db/migrations",
});
