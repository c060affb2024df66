-- Written by hand (drizzle-kit writes no index statistics settings). Depends on 0002.
-- ANALYZE gathers statistics for an expression index by calling its expression on every sampled row: for
-- documents_name_grams_idx, document_name_grams() on up to 30,000 names: an ANALYZE of 100,000 documents took 4.0 s
-- with them and 0.2 s without on PGlite (npm run bench:documents:statistics), where it holds the server's event loop (the embedded database's maintenance,
-- lib/db/embedded-maintenance.ts, and PostgreSQL's autovacuum both run it). No plan of the name search changed with
-- those statistics or without them (bench/documents/embedded-statistics.ts): the search picks its way itself
-- (lib/operators/operator-records.ts), and the gram index's selectivity falls back to the default.
ALTER INDEX "documents_name_grams_idx" ALTER COLUMN 1 SET STATISTICS 0;
