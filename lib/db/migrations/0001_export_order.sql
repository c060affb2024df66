DROP INDEX "document_events_trail_idx";--> statement-breakpoint
CREATE INDEX "documents_export_idx" ON "documents" USING btree ("user_key","created_at" DESC NULLS LAST,"item_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "document_events_trail_idx" ON "document_events" USING btree ("user_key","item_id","at","id");