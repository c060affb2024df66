import { NextResponse } from "next/server";
import { z } from "zod";
import { resolvePeriod } from "@/app/operator/_lib/period";
import { describeDatabaseError } from "@/lib/db/database-errors";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { exportByteStream } from "@/lib/documents/documents-export";
import { AppError, OPERATOR_DATA_UNAVAILABLE_MESSAGE } from "@/lib/errors";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/locales";
import { resolveTimeZone } from "@/lib/i18n/resolve-locale";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { requireOperatorForRequest } from "@/lib/operators/operator-access";
import { operatorExportChunks } from "@/lib/operators/operator-export";
import { recordOperatorAccess } from "@/lib/operators/operator-records";
import { withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

const formatSchema = z.object({ format: z.enum(["csv", "json"], { error: "format must be csv or json" }) });

const PERIOD_PROBLEMS = {
  unknown: "must be today, 7d, 30d or custom",
  invalid: "must be a calendar day, YYYY-MM-DD",
  missing: "is required for a custom range",
  order: "must not be before from",
  tooLong: "must be at most 366 days after from",
} as const;

/**
 * The overview's documents for a period, across users: `?format=csv|json&range=today|7d|30d|custom[&from=&to=]`,
 * the period in the operator's time zone exactly as the overview reads it (app/operator/_lib/period.ts). Streamed
 * in keyset batches (lib/operators/operator-export.ts). Its "operator-export" budget is spent and anyone but an operator
 * is turned away in proxy.ts (answered as for a path that does not exist), before any validation; the download is
 * written to the access log before it starts.
 */
export const GET = withErrorHandling(async (req) => {
  const operator = await requireOperatorForRequest(req);
  const query = Object.fromEntries(req.nextUrl.searchParams);
  const { format } = formatSchema.parse({ format: query.format ?? "csv" });
  const timeZone = resolveTimeZone(req.cookies.get(TIME_ZONE_COOKIE)?.value);
  const resolved = resolvePeriod(query, timeZone, new Date());
  if (!resolved.ok) {
    const message = `${resolved.error.field} ${PERIOD_PROBLEMS[resolved.error.problem]}`;
    throw new AppError("VALIDATION_FAILED", 400, message, { [resolved.error.field]: [message] });
  }
  const { firstDay, lastDay, period } = resolved;
  await withDocumentRecords(() => recordOperatorAccess(operator, { action: "export", detail: `${firstDay}..${lastDay} ${timeZone} ${format}` }), OPERATOR_DATA_UNAVAILABLE_MESSAGE);
  const requestId = currentRequestId();
  const body = await withDocumentRecords(() =>
    exportByteStream(operatorExportChunks(period, format), (error) =>
      getLogger().error({ msg: `operator export stopped part-way: ${describeDatabaseError(error)}`, requestId, code: "EXPORT_INCOMPLETE" }),
    ),
    OPERATOR_DATA_UNAVAILABLE_MESSAGE,
  );
  return new NextResponse(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="documents-all-users-${firstDay}-to-${lastDay}.${format}"`,
      "cache-control": "no-store",
      // A proxy that buffers (nginx does by default) would hold the whole file.
      "x-accel-buffering": "no",
    },
  });
});
