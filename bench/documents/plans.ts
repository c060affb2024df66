/**
 * The plans of the export's keyset batches (EXPLAIN ANALYZE), on PGlite and on PostgreSQL, for docs/documents.md:
 * one user with 10,000 documents (1,000 of them removed) among 50,000, and 300 of the user's documents with
 * 1,000 events each. `npm run bench:documents` prints the same plans at its larger scale.
 *
 *   npx tsx --conditions=react-server bench/documents/plans.ts
 *
 * PostgreSQL on BENCH_PLANS_DB_PORT (4718).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { openDatabase, queryRows } from "@/lib/db/client";
import { envPort } from "../../scripts/lib/env-port";
import { startPostgresServer } from "../../scripts/lib/postgres-server";
import { exportPlans, type Execute } from "./export-plans";

const USER = "plans-user";
const SEED = [
  sql`
    insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at, removed_at)
    select case when g <= 10000 then ${USER} else 'other-' || (g % 400) end, md5('item' || g)::uuid::text, md5('file' || g)::uuid::text, 0, 'documents',
           'Contract ' || g, 'contract', 1000 + g, md5('x' || g), 'uploaded',
           timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01' + g * interval '1 second',
           case when g % 10 = 0 then timestamptz '2026-06-01' end
    from generate_series(1, 50000) g`,
  sql`
    insert into document_events (user_key, item_id, event_id, type, at)
    select user_key, item_id, md5('created' || item_id)::uuid, 'created', created_at from documents`,
  sql`
    insert into document_events (user_key, item_id, event_id, type, at, details)
    select user_key, item_id, md5(i || item_id)::uuid, 'resumed', created_at + i * interval '1 millisecond', jsonb_build_object('mode', 'blocks', 'bytes', size)
    from (select * from documents where user_key = ${USER} order by created_at desc limit 300) d, generate_series(1, 999) i`,
  sql`analyze`,
];

const work = mkdtempSync(path.join(os.tmpdir(), "esign-bench-plans-"));
const postgres = await startPostgresServer(envPort("BENCH_PLANS_DB_PORT", 4718));
try {
  for (const [name, options] of [
    ["PGlite", { dir: path.join(work, "db") }],
    ["PostgreSQL", { url: postgres.url, dir: "unused" }],
  ] as const) {
    // PostgreSQL over a plain connection: the app's pool gives up on any query after 5 s, and the seed takes longer.
    // Migrated by the app's own open either way.
    const opened = await openDatabase(options);
    if ("url" in options) await opened.close();
    const database = "url" in options ? null : opened;
    const client = "url" in options ? new pg.Client({ connectionString: options.url }) : null;
    await client?.connect();
    try {
      const db = client ? drizzle({ client }) : null;
      const execute: Execute = async (statement) =>
        db ? (await db.execute(statement)).rows : await queryRows<Record<string, unknown>>(database!.db, statement);
      const started = performance.now();
      for (const statement of SEED) await execute(statement);
      console.log(`${name}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      for (const plan of await exportPlans(USER, execute)) console.log(`${name}:\n${plan}\n`);
    } finally {
      await database?.close();
      await client?.end();
    }
  }
} finally {
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
}
