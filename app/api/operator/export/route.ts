import { z } from "zod";
import { PERIOD_PROBLEMS, resolvePeriod } from "@/app/operator/_lib/period";
import { AppError } from "@/lib/errors";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/locales";
import { resolveTimeZone } from "@/lib/i18n/resolve-locale";
import { requireOperatorForRequest } from "@/lib/operators/operator-access";
import { operatorExportChunks } from "@/lib/operators/operator-export";
import { operatorExportResponse } from "@/lib/operators/operator-export-response";
import { withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

const formatSchema = z.object({ format: z.enum(["csv", "json"], { error: "format must be csv or json" }) });

/**
 * The overview's documents for a period, across users: `?format=csv|json&range=today|7d|30d|custom[&from=&to=]`,
 * the period in the operator's time zone exactly as the overview reads it (app/operator/_lib/period.ts). Streamed
 * under the export controls and written to the access log before it starts (lib/operators/operator-export-response.ts).
 * Its "operator-export" budget is spent and anyone but an operator is turned away in proxy.ts (answered as for a path
 * that does not exist), before any validation.
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
  return operatorExportResponse(req, operator, {
    access: { action: "export", detail: `${firstDay}..${lastDay} ${timeZone} ${format}` },
    format,
    fileName: `documents-all-users-${firstDay}-to-${lastDay}.${format}`,
    chunks: (records) => operatorExportChunks(period, format, { records }),
    what: "operator export",
  });
});
