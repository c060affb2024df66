import { NextResponse } from "next/server";
import { documentPathSchema } from "@/lib/documents/document-record-input";
import { removeDocument } from "@/lib/documents/document-records";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { requireDocumentUser } from "@/lib/documents/request-user";
import { documentNotFoundError } from "@/lib/errors";
import { withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

/**
 * "Remove from this list": hides the record from the user's list and adds a "removed" event to its trail (kept until
 * the retention sweep). The document at the service is not touched: the spec has no operation to delete one.
 * 204, or 404 when the user has no such document in the list.
 */
export const DELETE = withErrorHandling(async (req, { params }: { params: Promise<{ itemId: string }> }) => {
  const { userKey, ctx } = await requireDocumentUser(req, "documents-remove");
  const { itemId } = documentPathSchema.parse(await params);
  if (!(await withDocumentRecords(() => removeDocument(userKey, itemId, ctx)))) throw documentNotFoundError();
  return new NextResponse(null, { status: 204, headers: { "cache-control": "no-store" } });
});
