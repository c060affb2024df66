import { NextResponse } from "next/server";
import { documentEventsReportSchema, documentPathSchema } from "@/lib/documents/document-record-input";
import { REPORTS_BODY_MAX_BYTES } from "@/lib/documents/document-report";
import { recordEvents } from "@/lib/documents/document-records";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { requireDocumentUser } from "@/lib/documents/request-user";
import { documentNotFoundError } from "@/lib/errors";
import { readJsonObject, withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

/**
 * The browser reports what happened to one of the user's documents (created, upload started, uploaded, failed …).
 * Idempotent by event id, so the browser may send a report again until it gets a 200 `{ recorded: n }` (n: events
 * new to the record). 404 for a document the user has no record of (unless the report creates it) or removed, 503
 * DATABASE_UNAVAILABLE while the database is down: the browser keeps the report and retries.
 */
export const POST = withErrorHandling(async (req, { params }: { params: Promise<{ itemId: string }> }) => {
  const { userKey, ctx } = await requireDocumentUser(req, "document-events");
  const { itemId } = documentPathSchema.parse(await params);
  const { events } = documentEventsReportSchema.parse(await readJsonObject(req, REPORTS_BODY_MAX_BYTES));
  const recorded = await withDocumentRecords(() => recordEvents(userKey, itemId, events, ctx));
  if (recorded === null) throw documentNotFoundError();
  return NextResponse.json({ recorded }, { headers: { "cache-control": "no-store" } });
});
