/**
 * What syncing costs the embedded database (docs/decisions/012-durable-pglite.md): writes per second of the app's
 * own record write (`recordEvents`, what `POST /api/documents` does before it answers 201), one after another,
 * on two PGlite instances in this process, in folders on the same disk:
 *   - before: PGlite as it ships (its NodeFS, `-F` in its default start parameters): nothing reaches the disk;
 *   - after: the app's embedded database (`openDatabase`: DurableNodeFS, fsync on): each commit fdatasyncs its WAL.
 * The two run in alternating batches (which one goes first alternates too), so that a machine shared with other
 * work weighs on both alike. Prints each batch, then per instance the median writes/s over its batches, p50/p99 of
 * one write over all of them, and the ratio after ÷ before.
 *
 *   npm run bench:durability                          # 6 rounds of 200 writes each
 *   npm run bench:durability -- --rounds 10 --writes 500
 *   BENCH_DURABILITY_DIR=/var/tmp npm run bench:durability   # folders on another disk (default: the OS temp folder)
 *
 * A tmpfs folder (like /dev/shm) makes every sync free: the bench says so when it sees one.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { openDatabase, type Database } from "@/lib/db/client";
import { migratePgliteDatabase } from "@/lib/db/migrate";
import { readPgliteSeed } from "@/lib/db/pglite-seed";
import { schema } from "@/lib/db/schema";
import { documentRecordsFor, type DocumentRecords } from "@/lib/documents/document-records";
import { percentile } from "../load/stats";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg("rounds", 6);
const WRITES = arg("writes", 200);
const TMPFS_MAGIC = 0x01021994;

process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

type Instance = { label: string; records: DocumentRecords; close: () => Promise<void>; batches: number[]; latencies: number[] };

/** PGlite as it ships, with the app's shared_buffers: what the app ran before DurableNodeFS. */
async function openShippedPglite(dir: string): Promise<Pick<Instance, "records" | "close">> {
  mkdirSync(dir, { recursive: true });
  const seed = readPgliteSeed(dir);
  const client = await PGlite.create({ dataDir: dir, startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"], ...(seed ? { loadDataDir: seed } : {}) });
  await migratePgliteDatabase(client);
  const db = drizzle({ client, schema }) as unknown as Database;
  return { records: documentRecordsFor(async () => ({ db, kind: "pglite" })), close: () => client.close() };
}

/** One write as the create route makes it: a new document's "created" event. */
const recordOne = (records: DocumentRecords) =>
  records.recordEvents("bench-user", randomUUID(), [{ id: randomUUID(), type: "created", at: new Date().toISOString(), fileId: randomUUID(), subdocid: 0, name: "Bench", doctype: "nda" }], {});

async function batch(instance: Instance): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < WRITES; i++) {
    const t = performance.now();
    await recordOne(instance.records);
    instance.latencies.push(performance.now() - t);
  }
  const perSecond = WRITES / ((performance.now() - started) / 1000);
  instance.batches.push(perSecond);
  return perSecond;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(sorted(values), 50);
const fixed = (n: number, digits = 1) => n.toFixed(digits);

const root = mkdtempSync(path.join(process.env.BENCH_DURABILITY_DIR ?? os.tmpdir(), "esign-bench-durability-"));
try {
  const onTmpfs = statfsSync(root).type === TMPFS_MAGIC;
  console.log(`folders under ${root}${onTmpfs ? " — a tmpfs: syncs cost nothing here, the figures say nothing about a disk" : ""}`);
  console.log(`load average at start: ${os.loadavg().map((l) => fixed(l, 2)).join(" ")}; ${ROUNDS} rounds × ${WRITES} writes per instance`);
  const opened = performance.now();
  const before: Instance = { label: "before (PGlite as shipped: -F, no sync)", ...(await openShippedPglite(path.join(root, "before"))), batches: [], latencies: [] };
  const afterDb = await openDatabase({ dir: path.join(root, "after") });
  const after: Instance = { label: "after (DurableNodeFS, fsync on)", records: documentRecordsFor(async () => afterDb), close: () => afterDb.close(), batches: [], latencies: [] };
  console.log(`both open in ${fixed((performance.now() - opened) / 1000)} s`);
  // A few writes each before timing: the first ones pay for plans and caches.
  for (let i = 0; i < 20; i++) await Promise.all([recordOne(before.records), recordOne(after.records)]);

  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [before, after] : [after, before];
    const figures: string[] = [];
    for (const instance of order) figures.push(`${instance === before ? "before" : "after"} ${fixed(await batch(instance))}/s`);
    console.log(`round ${round + 1}: ${figures.join(", ")}`);
  }

  console.log("");
  console.log("| instance | writes/s (median of batches) | one write p50 / p99 (ms) |");
  console.log("|---|---|---|");
  for (const instance of [before, after]) {
    console.log(`| ${instance.label} | ${fixed(median(instance.batches))} | ${fixed(percentile(sorted(instance.latencies), 50), 2)} / ${fixed(percentile(sorted(instance.latencies), 99), 2)} |`);
  }
  console.log(`after ÷ before, writes/s: ${fixed(median(after.batches) / median(before.batches), 2)}; load average at end: ${os.loadavg().map((l) => fixed(l, 2)).join(" ")}`);
  await before.close();
  await after.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
