import { NextResponse } from "next/server";
import { z } from "zod";
import { describeDatabaseError } from "@/lib/db/database-errors";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { OPERATOR_DATA_UNAVAILABLE_MESSAGE } from "@/lib/errors";
import { exportByteStream } from "@/lib/documents/documents-export";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { requireOperatorForRequest } from "@/lib/operators/operator-access";
import { accessLogExportChunks } from "@/lib/operators/operator-export";
import { recordOperatorAccess } from "@/lib/operators/operator-records";
import { withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

const formatSchema = z.object({ format: z.enum(["csv", "json"], { error: "format must be csv or json" }) });

/**
 * The whole operator access log, oldest first: `?format=csv|json`. Its "operator-export" budget is spent and anyone but
 * an operator is turned away in proxy.ts (answered as for a path that does not exist); the download is itself written
 * to the log (before it starts, so it is in it).
 */
export const GET = withErrorHandling(async (req) => {
  const operator = await requireOperatorForRequest(req);
  const { format } = formatSchema.parse({ format: req.nextUrl.searchParams.get("format") ?? "csv" });
  await withDocumentRecords(() => recordOperatorAccess(operator, { action: "export_access_log", detail: format }), OPERATOR_DATA_UNAVAILABLE_MESSAGE);
  const requestId = currentRequestId();
  const body = await withDocumentRecords(() =>
    exportByteStream(accessLogExportChunks(format), (error) =>
      getLogger().error({ msg: `access log export stopped part-way: ${describeDatabaseError(error)}`, requestId, code: "EXPORT_INCOMPLETE" }),
    ),
    OPERATOR_DATA_UNAVAILABLE_MESSAGE,
  );
  return new NextResponse(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="operator-access-log.${format}"`,
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
});
