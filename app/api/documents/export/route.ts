import { NextResponse } from "next/server";
import { z } from "zod";
import { configuredDatabaseKind } from "@/lib/db/client";
import { describeDatabaseError } from "@/lib/db/database-errors";
import { documentRecords } from "@/lib/documents/document-records";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { documentsExportCsv, documentsExportJson, EXPORT_BATCH_SIZES, exportByteStream, exportFileName } from "@/lib/documents/documents-export";
import { exportSlots, exportsBusyError } from "@/lib/documents/export-slots";
import { requireDocumentUser } from "@/lib/documents/request-user";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/locales";
import { resolveTimeZone } from "@/lib/i18n/resolve-locale";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

const formatSchema = z.enum(["csv", "json"], { error: "format must be csv or json" });

/**
 * Downloads everything kept about the user's documents, removed ones included, with their audit trails:
 * `?format=csv` (one row per event, with a UTF-8 byte-order mark) or `?format=json`. Streamed in keyset batches
 * sized for the kind of database (EXPORT_BATCH_SIZES, lib/documents/documents-export.ts), named by the user's own date. At most EXPORTS_PER_USER of one user's exports
 * run at once in this process (lib/documents/export-slots.ts); the rest wait in line, up to EXPORT_WAIT_MS, then 429.
 */
export const GET = withErrorHandling(async (req) => {
  const { userKey } = await requireDocumentUser(req, "documents-export");
  const format = formatSchema.parse(req.nextUrl.searchParams.get("format") ?? "json");
  // Beyond EXPORTS_PER_USER of this user's exports, this one waits its turn (the download starts late), for a while.
  const release = await exportSlots.acquire(userKey, req.signal);
  // The client went away while waiting: nobody reads this answer.
  if (release === "abandoned") return new NextResponse(null, { status: 204 });
  if (release === "busy") throw exportsBusyError();
  const now = new Date();
  const requestId = currentRequestId();
  const { batchSize, batchEventsMax } = EXPORT_BATCH_SIZES[configuredDatabaseKind()];
  const chunks = format === "csv" ? documentsExportCsv(documentRecords, userKey, batchSize, batchEventsMax) : documentsExportJson(documentRecords, userKey, now, batchSize);
  const body = await withDocumentRecords(() =>
    exportByteStream(
      chunks,
      (error) => getLogger().error({ msg: `document export stopped part-way: ${describeDatabaseError(error)}`, requestId, code: "EXPORT_INCOMPLETE" }),
      release,
    ),
  );
  return new NextResponse(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName(format, now, resolveTimeZone(req.cookies.get(TIME_ZONE_COOKIE)?.value))}"`,
      "cache-control": "no-store",
      // A proxy that buffers (nginx does by default) would hold the whole file in its memory or on its disk.
      "x-accel-buffering": "no",
    },
  });
});
