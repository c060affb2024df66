import { NextResponse } from "next/server";
import { documentsImportSchema } from "@/lib/documents/document-record-input";
import { importDocuments } from "@/lib/documents/document-records";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { requireDocumentUser } from "@/lib/documents/request-user";
import { readJsonObject, withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

/** 20 entries of the old list, each a few hundred bytes. */
const MAX_BODY_BYTES = 32 * 1024;

/**
 * The one-time import of the list the browser used to keep (lib/document-history.ts), on the first visit after the
 * upgrade: each entry not yet on record becomes an uploaded document with an "imported" event. Idempotent, so the
 * browser may send it again until it gets 200 `{ imported: n }` (n: entries new to the record).
 */
export const POST = withErrorHandling(async (req) => {
  const { userKey, ctx } = await requireDocumentUser(req, "documents-import");
  const { documents } = documentsImportSchema.parse(await readJsonObject(req, MAX_BODY_BYTES));
  const imported = await withDocumentRecords(() => importDocuments(userKey, documents, ctx));
  return NextResponse.json({ imported }, { headers: { "cache-control": "no-store" } });
});
