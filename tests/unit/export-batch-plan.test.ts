import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type OpenDatabase } from "@/lib/db/client";
import { documentRecordsFor, type DocumentRecords } from "@/lib/documents/document-records";

/**
 * The export reads a user's documents in batches from documents_export_idx, in its order. Where the user's documents
 * are the oldest in the table, the planner judged a 500-row batch past the first cheaper through documents_created_idx
 * (a range on created_at) followed by a sort of all the user's documents still to come: N² over an export. Seen in
 * the index statistics of PGlite (one backend, so its counters are exact once flushed): 3,000 rows read through
 * documents_created_idx and sorted for the 2,000 exported.
 */
const OWN = 1_500;
const OTHERS = 13_500;

describe("the export's document batches on PGlite", () => {
  const dir = mkdtempSync(join(tmpdir(), "esign-export-plan-"));
  let database: OpenDatabase;
  let records: DocumentRecords;
  /** Index entries read through `index` so far. */
  const readThrough = async (index: string) => {
    await database.db.execute(sql`select pg_stat_force_next_flush()`);
    const rows = await queryRows<{ idx_tup_read: string | number }>(database.db, sql`select idx_tup_read from pg_stat_user_indexes where indexrelname = ${index}`);
    return Number(rows[0]?.idx_tup_read ?? 0);
  };

  beforeAll(async () => {
    database = await openDatabase({ dir: join(dir, "db") });
    records = documentRecordsFor(async () => database);
    // The user's documents first in time, then everyone else's: the distribution that misled the planner.
    await database.db.execute(sql`
      insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at)
      select case when g <= ${OWN} then 'exporter' else 'other-' || (g % 400) end, md5('item' || g), md5('file' || g), 0, 'documents',
             'Lease ' || g, 'contract', 1, md5('x' || g), 'uploaded', timestamptz '2026-01-01' + g * interval '1 second', now()
      from generate_series(1, ${OWN + OTHERS}) g`);
    await database.db.execute(sql`analyze documents`);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads every batch of 500 through documents_export_idx, no row through documents_created_idx, newest first", async () => {
    const createdRead = await readThrough("documents_created_idx");
    const exportRead = await readThrough("documents_export_idx");
    const seen: string[] = [];
    for await (const batch of records.exportDocumentBatches("exporter", 500)) seen.push(...batch.map((d) => d.createdAt));
    expect(seen).toHaveLength(OWN);
    expect([...seen].sort().reverse()).toEqual(seen);
    // No batch through documents_created_idx: at most the one entry the query past the last row may look at there.
    expect((await readThrough("documents_created_idx")) - createdRead, "rows read through documents_created_idx").toBeLessThanOrEqual(1);
    // Each of the user's documents once through the export's index (and no more: no batch re-reads the ones before).
    expect((await readThrough("documents_export_idx")) - exportRead).toBe(OWN);
  });
});
