import { z } from "zod";
import { requireOperatorForRequest } from "@/lib/operators/operator-access";
import { accessLogExportChunks } from "@/lib/operators/operator-export";
import { operatorExportResponse } from "@/lib/operators/operator-export-response";
import { withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

const formatSchema = z.object({ format: z.enum(["csv", "json"], { error: "format must be csv or json" }) });

/**
 * The whole operator access log, oldest first: `?format=csv|json`. Its "operator-export" budget is spent and anyone but
 * an operator is turned away in proxy.ts (answered as for a path that does not exist); the download is itself written
 * to the log before it starts, so it is in it (lib/operators/operator-export-response.ts).
 */
export const GET = withErrorHandling(async (req) => {
  const operator = await requireOperatorForRequest(req);
  const { format } = formatSchema.parse({ format: req.nextUrl.searchParams.get("format") ?? "csv" });
  return operatorExportResponse(req, operator, {
    access: { action: "export_access_log", detail: format },
    format,
    fileName: `operator-access-log.${format}`,
    chunks: (records) => accessLogExportChunks(format, { records }),
    what: "access log export",
  });
});
