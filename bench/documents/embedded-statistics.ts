/**
 * The embedded database's reads with and without table statistics. PGlite runs as a single backend without
 * autovacuum, so until lib/db/embedded-maintenance.ts no table of an embedded deployment was ever analyzed; the
 * other benches analyze after seeding, and so measured plans that such a deployment never got.
 *
 * A fresh PGlite folder gets 100,000 documents across 1,000 users (one user with 10,000; a "created" event each;
 * a fifth still "created"), as bench/documents/search.ts seeds them. Each read is timed `--runs` times after 5
 * warm-up calls, first never analyzed, then after one maintenance pass (maintainEmbeddedTables, timed as well);
 * medians and their ratio printed. Then a plain `ANALYZE documents` with the name-grams index's statistics turned on
 * again (as before migration 0004) against off, and a pass after half the documents changed status (a VACUUM).
 *
 *   npm run bench:documents:statistics
 *   npm run bench:documents:statistics -- --runs 50
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { percentile } from "../load/stats";
import { openDatabase, queryRows } from "@/lib/db/client";
import { maintainEmbeddedTables } from "@/lib/db/embedded-maintenance";
import { documentRecordsFor } from "@/lib/documents/document-records";
import { operatorRecordsFor } from "@/lib/operators/operator-records";
import { seed } from "./search";

const WARMUP = 5;
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 20;

async function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), "esign-bench-statistics-"));
  // Opened empty (its pass at open has nothing to do), then filled: as a deployment's tables fill up while it runs.
  const database = await openDatabase({ dir: path.join(work, "db") });
  // The PGlite under drizzle, as the app's maintenance gets it.
  const client = (database.db as unknown as { $client: Parameters<typeof maintainEmbeddedTables>[0] }).$client;
  try {
    const seedMs = await seed(database, undefined, { analyze: false });
    console.log(`seeded 100,000 documents across 1,000 users in ${(seedMs / 1000).toFixed(1)} s`);
    const own = documentRecordsFor(async () => database);
    const operator = operatorRecordsFor(async () => database);
    const [one] = await queryRows<{ item_id: string }>(database.db, sql`select item_id from documents where user_key = 'search-user-1' limit 1`);
    const now = new Date("2026-03-15T00:00:00Z");
    const reads: Array<[string, () => Promise<unknown>]> = [
      ["a user's list, first page (10,000 documents)", () => own.listDocuments("search-user-1", { limit: 50 })],
      ["a user's list, name search", () => own.listDocuments("search-user-1", { q: "Lease 5", limit: 50 })],
      ["a user's document and its trail", () => own.getDocument("search-user-1", one!.item_id)],
      ["operator: a user's page", () => operator.getOperatorUser("search-user-500")],
      ["operator: search by email", () => operator.searchOperator("user421@example", { limit: 20 })],
      ["operator: search 契約書", () => operator.searchOperator("契約書", { limit: 20 })],
      ["operator: stuck list (20,000 stuck), first page", () => operator.listStuckDocuments({ now, limit: 50 })],
      ["operator: overview, 30 days", () => operator.getOperatorOverview({ from: new Date("2026-02-01T00:00:00Z"), to: new Date("2026-03-03T00:00:00Z"), timeZone: "UTC" })],
    ];
    const timeAll = async () => {
      const medians: number[] = [];
      for (const [, read] of reads) {
        const latencies: number[] = [];
        for (let i = 0; i < WARMUP + RUNS; i++) {
          const started = performance.now();
          await read();
          if (i >= WARMUP) latencies.push(performance.now() - started);
        }
        latencies.sort((a, b) => a - b);
        medians.push(percentile(latencies, 50));
      }
      return medians;
    };
    const [before] = await queryRows<{ reltuples: number }>(database.db, sql`select reltuples::float8 as reltuples from pg_class where relname = 'documents'`);
    const never = await timeAll();
    const pass = await maintainEmbeddedTables(client);
    const [after] = await queryRows<{ reltuples: number }>(database.db, sql`select reltuples::float8 as reltuples from pg_class where relname = 'documents'`);
    const analyzed = await timeAll();

    console.log(`\nEmbedded PGlite, 100,000 documents: medians of ${RUNS} calls after ${WARMUP} warm-up ones; ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    console.log(`documents' reltuples ${before!.reltuples} before (never analyzed), ${after!.reltuples} after one maintenance pass (${pass.ms.toFixed(0)} ms: vacuumed ${pass.vacuumed.join(", ") || "none"}; analyzed ${pass.analyzed.join(", ") || "none"})`);
    console.log("| read | never analyzed | after the maintenance pass | ratio |");
    console.log("|---|---|---|---|");
    reads.forEach(([label], i) => console.log(`| ${label} | ${never[i]!.toFixed(2)} ms | ${analyzed[i]!.toFixed(2)} ms | ${(never[i]! / analyzed[i]!).toFixed(2)}× |`));

    // What migration 0004 saves each analysis of documents.
    const analyzeMs = async () => {
      const started = performance.now();
      await database.db.execute(sql`analyze documents`);
      return performance.now() - started;
    };
    const off = await analyzeMs();
    await database.db.execute(sql`alter index documents_name_grams_idx alter column 1 set statistics -1`);
    const on = await analyzeMs();
    await database.db.execute(sql`alter index documents_name_grams_idx alter column 1 set statistics 0`);
    console.log(`\nANALYZE documents: ${off.toFixed(0)} ms with documents_name_grams_idx gathering no statistics (migration 0004), ${on.toFixed(0)} ms with them`);

    // Half the documents change status (one dead row version each): the next pass vacuums and analyzes them.
    await database.db.execute(sql`update documents set status = 'uploaded', updated_at = updated_at + interval '1 minute' where status <> 'uploaded' or size % 4 = 0`);
    const [dead] = await queryRows<{ dead: number }>(database.db, sql`select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'documents'`);
    const cleanup = await maintainEmbeddedTables(client);
    console.log(`${dead!.dead} dead row versions in documents: the maintenance pass took ${cleanup.ms.toFixed(0)} ms (vacuumed ${cleanup.vacuumed.join(", ") || "none"}; analyzed ${cleanup.analyzed.join(", ") || "none"})`);
  } finally {
    await database.close();
    rmSync(work, { recursive: true, force: true });
  }
}

void main();
