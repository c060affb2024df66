import { NextResponse } from "next/server";
import { z } from "zod";
import { exportDocuments } from "@/lib/documents/document-records";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { documentsExportCsv, documentsExportJson } from "@/lib/documents/documents-export";
import { requireDocumentUser } from "@/lib/documents/request-user";
import { withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

const formatSchema = z.enum(["csv", "json"], { error: "format must be csv or json" });

/**
 * Downloads everything kept about the user's documents, removed ones included, with their audit trails:
 * `?format=csv` (one row per event) or `?format=json`.
 */
export const GET = withErrorHandling(async (req) => {
  const { userKey } = await requireDocumentUser(req);
  const format = formatSchema.parse(req.nextUrl.searchParams.get("format") ?? "json");
  const data = await withDocumentRecords(() => exportDocuments(userKey));
  const now = new Date();
  const body = format === "csv" ? documentsExportCsv(data) : documentsExportJson(data, now);
  return new NextResponse(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="documents-${now.toISOString().slice(0, 10)}.${format}"`,
      "cache-control": "no-store",
    },
  });
});
