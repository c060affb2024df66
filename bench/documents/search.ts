/**
 * The operator's search across users (lib/operators/records/search-operator.ts), at the repository: 100,000 documents across
 * 1,000 users (English and Japanese names, one "created" event each; one user has 10,000 of them, as in run.ts) and
 * the users' records, on a fresh embedded PGlite and on a PostgreSQL database of its own. Each query is timed `runs`
 * times in a row after 5 warm-up calls; p50 and p99 of the whole call (the users' search, the documents'
 * newest-first window, and the gram index when the window holds no full page). Also that user's own name search
 * (listDocuments, `Lease 1` … `Lease 9`, 50 a page) against the query it replaced (ILIKE along the list's index),
 * alternating, so both see the same load. Run by run.ts, or alone with `npm run bench:documents -- --search-only`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { percentile } from "../load/stats";
import { openDatabase, queryRows, type OpenDatabase } from "@/lib/db/client";
import { documentRecordsFor } from "@/lib/documents/document-records";
import { operatorRecordsFor } from "@/lib/operators/operator-records";

const DOCUMENTS = 100_000;
const USERS = 1_000;
const WARMUP = 5;

/** The names' words: one in eight of each; each name is the word and its number. */
const WORDS = ["Lease", "Invoice", "契約書", "見積書", "請求書", "Offer", "稟議書", "注文書"];

const SEED = [
  sql`insert into users (user_key, email, display_name, first_seen_at, last_seen_at)
      select 'search-user-' || u, 'user' || u || '@example.com', 'User ' || u, timestamptz '2026-01-01', timestamptz '2026-01-01' + u * interval '1 minute'
      from generate_series(1, ${sql.raw(String(USERS))}) u`,
  sql`insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at)
      select case when g % 10 = 0 then 'search-user-1' else 'search-user-' || (2 + g % ${sql.raw(String(USERS - 1))}) end, md5('search-item' || g)::uuid::text, md5('search-file' || g)::uuid::text, 0, 'documents',
             (array[${sql.raw(WORDS.map((w) => `'${w}'`).join(","))}])[1 + g % ${sql.raw(String(WORDS.length))}] || ' ' || g, 'contract', 1000 + g, md5('x' || g),
             (array['uploaded','uploaded','uploaded','failed','created'])[1 + g % 5],
             timestamptz '2026-01-01' + g * interval '1 minute', timestamptz '2026-01-01' + g * interval '1 minute'
      from generate_series(1, ${sql.raw(String(DOCUMENTS))}) g`,
  sql`insert into document_events (user_key, item_id, event_id, type, at)
      select user_key, item_id, md5('search-event' || item_id)::uuid, 'created', created_at from documents where user_key like 'search-user-%'`,
];

/** What an operator types: an email, words in both scripts at several lengths, a number, an item id, a miss. */
const QUERIES: Array<[string, string]> = [
  ["email", "user421@example"],
  ["Japanese word, 3 characters (one name in eight)", "契約書"],
  ["Japanese, 2 characters", "稟議"],
  ["Japanese, 1 character", "請"],
  ["Japanese word and number (a few names)", "見積書 4217"],
  ["English word and number (a few names)", "Lease 5000"],
  ["a number in 1 name", "99999"],
  ["the service's item id", "a3f0a7b1-6c2a-4f3e-9b1d-2f5e8c7d9a10"],
  ["nothing matches", "存在しない名前"],
];

export type SearchFigure = { label: string; query: string; p50: number; p99: number; documents: number; users: number };

const OWN_USER = "search-user-1";

/** The user's list search as it was before the gram index: ILIKE on the rows read along documents_list_idx. */
const OLD_OWN_SEARCH = (q: string) => sql`
  select * from documents where user_key = ${OWN_USER} and removed_at is null and name ilike ${`%${q}%`}
  order by created_at desc nulls last, item_id desc nulls last limit 51`;

/** Seeds, then analyzes unless `analyze` is false (embedded-statistics.ts times the reads before and after). */
export async function seed(database: OpenDatabase, url: string | undefined, { analyze = true } = {}): Promise<number> {
  const started = performance.now();
  const statements = analyze ? [...SEED, sql`analyze`] : SEED;
  if (url) {
    // Over a plain connection: the app's pool gives up on any query after 5 s, and these take longer.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const statement of statements) await drizzle({ client }).execute(statement);
    } finally {
      await client.end();
    }
  } else {
    for (const statement of statements) await database.db.execute(statement);
  }
  return performance.now() - started;
}

/** Times each query on one backend; `url` set: PostgreSQL (an empty database), else a fresh PGlite folder. */
export async function benchSearch(name: string, options: { url?: string; runs: number }): Promise<{ name: string; seedMs: number; figures: SearchFigure[]; ownSearch: { p50: number; p99: number; oldP50: number; oldP99: number } }> {
  const work = mkdtempSync(path.join(os.tmpdir(), "esign-bench-search-"));
  const database = await openDatabase({ url: options.url, dir: path.join(work, "db") });
  try {
    console.log(`${name}: seeding ${DOCUMENTS} documents across ${USERS} users …`);
    const seedMs = await seed(database, options.url);
    // The item id of one seeded document, so that the id query finds it.
    const [row] = await queryRows<{ item_id: string }>(database.db, sql`select item_id from documents where user_key = 'search-user-500' limit 1`);
    const records = operatorRecordsFor(async () => database);
    const figures: SearchFigure[] = [];
    for (const [label, raw] of QUERIES) {
      const query = label === "the service's item id" ? row!.item_id : raw;
      const latencies: number[] = [];
      let last = { documents: 0, users: 0 };
      for (let i = 0; i < WARMUP + options.runs; i++) {
        const started = performance.now();
        const result = await records.searchOperator(query, { limit: 20 });
        if (i >= WARMUP) latencies.push(performance.now() - started);
        last = { documents: result.documents.length, users: result.users.length };
      }
      latencies.sort((a, b) => a - b);
      const figure = { label, query, p50: percentile(latencies, 50), p99: percentile(latencies, 99), ...last };
      console.log(`  search ${label} (${JSON.stringify(query)}): p50 ${figure.p50.toFixed(2)} ms, p99 ${figure.p99.toFixed(2)} ms, ${figure.documents} documents, ${figure.users} users`);
      figures.push(figure);
    }
    // The user's own search, new and old alternating.
    const own = documentRecordsFor(async () => database);
    const fresh: number[] = [];
    const old: number[] = [];
    for (let i = 0; i < WARMUP + options.runs; i++) {
      const q = `Lease ${(i % 9) + 1}`;
      let started = performance.now();
      await own.listDocuments(OWN_USER, { q, limit: 50 });
      if (i >= WARMUP) fresh.push(performance.now() - started);
      started = performance.now();
      await database.db.execute(OLD_OWN_SEARCH(q));
      if (i >= WARMUP) old.push(performance.now() - started);
    }
    fresh.sort((a, b) => a - b);
    old.sort((a, b) => a - b);
    const ownSearch = { p50: percentile(fresh, 50), p99: percentile(fresh, 99), oldP50: percentile(old, 50), oldP99: percentile(old, 99) };
    console.log(`  the user's own name search (10,000 documents): p50 ${ownSearch.p50.toFixed(2)} ms, p99 ${ownSearch.p99.toFixed(2)} ms; the query it replaced: p50 ${ownSearch.oldP50.toFixed(2)} ms, p99 ${ownSearch.oldP99.toFixed(2)} ms`);
    return { name, seedMs, figures, ownSearch };
  } finally {
    await database.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The figures of both backends as a markdown table. */
export function printSearchTable(results: Awaited<ReturnType<typeof benchSearch>>[], runs: number): void {
  console.log(`\nOperator search at ${DOCUMENTS.toLocaleString("en")} documents across ${USERS.toLocaleString("en")} users: ${runs} calls per query after ${WARMUP} warm-up ones, limit 20; ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  console.log("| query | " + results.map((r) => `${r.name} p50 / p99`).join(" | ") + " | found (documents, users) |");
  console.log("|---|" + results.map(() => "---|").join("") + "---|");
  for (let i = 0; i < QUERIES.length; i++) {
    const f = results[0]!.figures[i]!;
    console.log(`| ${f.label} | ` + results.map((r) => `${r.figures[i]!.p50.toFixed(1)} / ${r.figures[i]!.p99.toFixed(1)} ms`).join(" | ") + ` | ${f.documents}, ${f.users} |`);
  }
  console.log("| the user's own name search, 10,000 documents (before: ILIKE along the list's index) | " + results.map((r) => `${r.ownSearch.p50.toFixed(1)} / ${r.ownSearch.p99.toFixed(1)} ms (before ${r.ownSearch.oldP50.toFixed(1)} / ${r.ownSearch.oldP99.toFixed(1)} ms)`).join(" | ") + " | 50 a page |");
  console.log("| seeding | " + results.map((r) => `${(r.seedMs / 1000).toFixed(1)} s`).join(" | ") + " | |");
}
