-- drizzle-kit's output (npm run db:generate). The erasure ledger (lib/erasure): a user key and a time per erasure,
-- nothing else; and the access log's action list with erase_user. The ALTERs change a constraint only: the access
-- log's triggers refuse UPDATE, DELETE and TRUNCATE of its rows, not DDL.
CREATE TABLE "erasure_ledger" (
	"user_key" text NOT NULL,
	"erased_at" timestamp with time zone NOT NULL,
	CONSTRAINT "erasure_ledger_pkey" PRIMARY KEY("user_key","erased_at")
);
--> statement-breakpoint
ALTER TABLE "operator_access_log" DROP CONSTRAINT "operator_access_log_action_check";--> statement-breakpoint
ALTER TABLE "operator_access_log" ADD CONSTRAINT "operator_access_log_action_check" CHECK ("operator_access_log"."action" in ('view_overview', 'view_stuck', 'search', 'view_user', 'view_document', 'export', 'view_access_log', 'export_access_log', 'erase_user'));