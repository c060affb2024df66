import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import { getLogger } from "@/lib/logging/logger";

/**
 * What PostgreSQL's autovacuum does for the tables, done for the embedded PGlite, which runs as a single backend
 * with no autovacuum worker: without it no table is ever analyzed, and the planner guesses. Measured at 100,000
 * documents (bench/documents/embedded-statistics.ts): a user's list page took 32 ms never analyzed against 1.7 ms
 * analyzed. Dead rows (a document's status changes with each event) are never vacuumed either.
 */

/** PostgreSQL's autovacuum defaults: analyze past 50 + 10 % of a table's rows changed, vacuum past 50 + 20 % dead. */
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
/**
 * PGlite's change counters start at zero when it opens: a table that has grown by this much since its last
 * analysis (its size on disk against the size recorded then) is analyzed too.
 */
const GROWN_SCALE = 0.2;

/** How often the tables are looked at after the pass at open. */
export const EMBEDDED_MAINTENANCE_INTERVAL_MS = 10 * 60_000;

type TableState = {
  name: string;
  /** -1: never analyzed or vacuumed. */
  reltuples: number;
  relpages: number;
  pages: number;
  changed: number;
  dead: number;
};

export type MaintenancePass = { analyzed: string[]; vacuumed: string[]; ms: number };

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** What a table needs now, by the thresholds above. */
export function tableNeeds(table: Omit<TableState, "name">): { analyze: boolean; vacuum: boolean } {
  const rows = Math.max(table.reltuples, 0);
  const neverAnalyzed = table.reltuples < 0 && table.pages > 0;
  const grown = table.reltuples >= 0 && table.pages > table.relpages * (1 + GROWN_SCALE) + 10;
  return {
    analyze: neverAnalyzed || grown || table.changed > ANALYZE_BASE + ANALYZE_SCALE * rows,
    vacuum: table.dead > VACUUM_BASE + VACUUM_SCALE * rows,
  };
}

/**
 * One pass over the app's tables: VACUUM those with enough dead rows, then ANALYZE those changed enough (all their
 * columns: a column list would leave the change counter as it is). documents_name_grams_idx gathers no statistics
 * (migration 0004), so ANALYZE does not call document_name_grams() on each sampled row: 0.2 s at 100,000 documents
 * against 4.0 s (npm run bench:documents:statistics). PGlite answers one query at a time on the event loop: each
 * statement holds it for its length (logged).
 */
export async function maintainEmbeddedTables(client: Pick<PGlite, "query" | "exec">): Promise<MaintenancePass> {
  const started = performance.now();
  // A backend hands its change counters to the statistics at most once a second: flushed first, they count every
  // write made before this pass.
  await client.query(`select pg_stat_force_next_flush()`);
  const { rows } = await client.query<TableState>(`
    select c.relname as name, c.reltuples::float8 as reltuples, c.relpages::int as relpages,
           (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages,
           coalesce(s.n_mod_since_analyze, 0)::float8 as changed, coalesce(s.n_dead_tup, 0)::float8 as dead
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    left join pg_stat_user_tables s on s.relid = c.oid
    where n.nspname = 'public' and c.relkind = 'r'
    order by c.relname`);
  const pass: MaintenancePass = { analyzed: [], vacuumed: [], ms: 0 };
  for (const table of rows) {
    const needs = tableNeeds(table);
    if (needs.vacuum) {
      await client.exec(`vacuum ${quote(table.name)}`);
      pass.vacuumed.push(table.name);
    }
    if (needs.analyze) {
      await client.exec(`analyze ${quote(table.name)}`);
      pass.analyzed.push(table.name);
    }
  }
  pass.ms = performance.now() - started;
  return pass;
}

/**
 * A pass now (awaited: the first requests then find the tables analyzed) and one every
 * EMBEDDED_MAINTENANCE_INTERVAL_MS while `writable()` holds (the folder is still this process's). A pass that fails is
 * logged and the next one tries again. `stop()` ends the schedule and waits for a pass under way.
 */
export async function startEmbeddedMaintenance(client: Pick<PGlite, "query" | "exec">, writable: () => boolean, intervalMs = EMBEDDED_MAINTENANCE_INTERVAL_MS): Promise<{ stop: () => Promise<void> }> {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const pass = async () => {
    if (stopped || !writable()) return;
    try {
      const done = await maintainEmbeddedTables(client);
      if (done.analyzed.length > 0 || done.vacuumed.length > 0) {
        const what = [done.vacuumed.length > 0 ? `vacuumed ${done.vacuumed.join(", ")}` : "", done.analyzed.length > 0 ? `analyzed ${done.analyzed.join(", ")}` : ""].filter(Boolean).join("; ");
        getLogger().info({ msg: `database: embedded maintenance ${what} in ${done.ms.toFixed(0)} ms` });
      }
    } catch (error) {
      getLogger().warn({ msg: `database: embedded maintenance failed (${(error as Error).message}); tried again in ${intervalMs / 60_000} min` });
    }
  };
  running = pass();
  await running;
  const timer = setInterval(() => {
    running = running.then(pass);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
