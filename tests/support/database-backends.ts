import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/client";
import { startPostgresServer, type RunningPostgres } from "../../scripts/lib/postgres-server";

/**
 * Both ways of running the database, to run the same tests against: PGlite in this process (a folder of its own under
 * the system's temp folder, named with `prefix`), and a real PostgreSQL (Debian's package, 15 on bookworm; PGlite runs
 * 18, so this also keeps the SQL to what 15 accepts) started on `postgresPort`. Both are stopped and removed after the
 * file's tests.
 */
export function databaseBackends(postgresPort: number, prefix: string): Array<[string, () => Promise<OpenDatabase>]> {
  let postgres: RunningPostgres | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await postgres?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return [
    [
      "PGlite",
      async () => {
        const dir = mkdtempSync(join(tmpdir(), prefix));
        dirs.push(dir);
        return openDatabase({ dir: join(dir, "db") });
      },
    ],
    [
      "PostgreSQL",
      async () => {
        postgres = await startPostgresServer(postgresPort);
        return openDatabase({ url: postgres.url, dir: "unused" });
      },
    ],
  ];
}
