-- Written by hand around drizzle-kit's output (it writes no functions or triggers). Depends on 0000 only.
-- The characters and pairs of characters of a lower-cased document name, for documents_name_grams_idx: a
-- substring search narrows to names holding every pair of the query (or its one character), then LIKE rechecks.
-- Plain SQL under any locale and on PGlite (no pg_trgm, which makes no trigrams from Japanese under a C ctype and
-- none at all for one or two characters). lower() is what ILIKE applies to both sides in a UTF-8 database.
-- COST: each call builds an array in a subquery (~0.1 ms), so the planner must not prefer calling it on every row
-- of a scan to reading documents_name_grams_idx.
CREATE FUNCTION document_name_grams(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 10000 AS $$
  SELECT coalesce(array_agg(DISTINCT substr(s.l, i, n)), '{}')
  FROM (SELECT lower(name) AS l) s, generate_series(1, char_length(s.l)) i, (VALUES (1), (2)) v(n)
  WHERE i + n - 1 <= char_length(s.l)
$$;
--> statement-breakpoint
-- What a query must find among a name's grams: its pairs, or its one character.
CREATE FUNCTION document_name_query_grams(query text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN char_length(query) < 2 THEN ARRAY[lower(query)]
    ELSE (SELECT array_agg(DISTINCT substr(lower(query), i, 2)) FROM generate_series(1, char_length(query) - 1) i) END
$$;
--> statement-breakpoint
CREATE TABLE "operator_access_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_access_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operator_user_key" text NOT NULL,
	"operator_email" text NOT NULL,
	"action" text NOT NULL,
	"subject_user_key" text,
	"item_id" text,
	"detail" text,
	CONSTRAINT "operator_access_log_action_check" CHECK ("operator_access_log"."action" in ('view_overview', 'view_stuck', 'search', 'view_user', 'view_document', 'export', 'view_access_log', 'export_access_log'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"user_key" text PRIMARY KEY NOT NULL,
	"email" text,
	"display_name" text,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "users_last_seen_idx" ON "users" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "document_events_at_idx" ON "document_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "documents_name_grams_idx" ON "documents" USING gin (document_name_grams("name")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "documents_item_id_idx" ON "documents" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "documents_created_idx" ON "documents" USING btree ("created_at","user_key","item_id");--> statement-breakpoint
CREATE INDEX "documents_open_idx" ON "documents" USING btree ("created_at") WHERE "documents"."removed_at" is null and "documents"."status" in ('created', 'uploading');
--> statement-breakpoint
-- The access log is append-only for everyone who connects, the app's own role included: a row once written is
-- never changed or removed (docs/operators.md says how an administrator would, deliberately, in SQL).
CREATE FUNCTION operator_access_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_access_log is append-only' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER operator_access_log_no_update_or_delete BEFORE UPDATE OR DELETE ON operator_access_log FOR EACH ROW EXECUTE FUNCTION operator_access_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER operator_access_log_no_truncate BEFORE TRUNCATE ON operator_access_log FOR EACH STATEMENT EXECUTE FUNCTION operator_access_log_refuse_change();
