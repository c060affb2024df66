CREATE TABLE "document_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "document_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_key" text NOT NULL,
	"item_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"request_id" text,
	"device" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "document_events_type_check" CHECK ("document_events"."type" in ('created', 'upload_started', 'uploaded', 'failed', 'resumed', 'abandoned', 'replaced', 'removed', 'imported'))
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"user_key" text NOT NULL,
	"item_id" text NOT NULL,
	"file_id" text NOT NULL,
	"subdocid" integer NOT NULL,
	"container" text,
	"name" text NOT NULL,
	"doctype" text NOT NULL,
	"size" bigint,
	"md5" text,
	"status" text NOT NULL,
	"replaced_by_item_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "documents_pkey" PRIMARY KEY("user_key","item_id"),
	CONSTRAINT "documents_status_check" CHECK ("documents"."status" in ('created', 'uploading', 'uploaded', 'failed', 'abandoned', 'replaced'))
);
--> statement-breakpoint
ALTER TABLE "document_events" ADD CONSTRAINT "document_events_document_fk" FOREIGN KEY ("user_key","item_id") REFERENCES "public"."documents"("user_key","item_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_events_event_id_idx" ON "document_events" USING btree ("user_key","item_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "document_events_once_idx" ON "document_events" USING btree ("user_key","item_id","type") WHERE "document_events"."type" in ('created', 'imported', 'removed');--> statement-breakpoint
CREATE INDEX "document_events_trail_idx" ON "document_events" USING btree ("user_key","item_id","at");--> statement-breakpoint
CREATE INDEX "documents_list_idx" ON "documents" USING btree ("user_key","created_at" DESC NULLS LAST,"item_id" DESC NULLS LAST) WHERE "documents"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "documents_updated_idx" ON "documents" USING btree ("updated_at");