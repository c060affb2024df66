import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { describeDatabaseError } from "@/lib/db/database-errors";
import { exportByteStream } from "@/lib/documents/documents-export";
import { exportSlots, exportsBusyError } from "@/lib/documents/export-slots";
import { databaseUnavailableError, OPERATOR_DATA_UNAVAILABLE_MESSAGE } from "@/lib/errors";
import type { ExportFormat } from "@/lib/exports/export-text";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import type { OperatorRecords } from "@/lib/operators/operator-records";
import { viewAsOperator, type OperatorView } from "@/lib/operators/operator-view";
import type { Operator, OperatorAccessInput } from "@/lib/operators/types";

type ExportRequest = {
  /** The line the download writes to the access log before anything is read. */
  access: OperatorAccessInput;
  format: ExportFormat;
  /** The attachment's name. */
  fileName: string;
  /** The file's text from the records the view reads. */
  chunks: (records: OperatorRecords) => AsyncGenerator<string>;
  /** What the server log calls it when it stops part-way. */
  what: string;
};

/**
 * An operator's download, under the user export's controls: one of the operator's export slots (EXPORTS_PER_USER at
 * once, the rest wait in line, then 429), its batches through the export query gate at the database's batch size
 * (lib/operators/operator-export.ts), and the access log's line written before the first read (viewAsOperator): a
 * log write that fails with the database unavailable is a 503 and no data. The slot is given up once the reads end.
 */
export async function operatorExportResponse(req: NextRequest, operator: Operator, request: ExportRequest): Promise<NextResponse> {
  const release = await exportSlots.acquire(operator.userKey, req.signal);
  // The client went away while waiting: nobody reads this answer.
  if (release === "abandoned") return new NextResponse(null, { status: 204 });
  if (release === "busy") throw exportsBusyError();
  const requestId = currentRequestId();
  const onError = (error: unknown) => getLogger().error({ msg: `${request.what} stopped part-way: ${describeDatabaseError(error)}`, requestId, code: "EXPORT_INCOMPLETE" });
  let view: OperatorView<ReadableStream<Uint8Array>> | undefined;
  try {
    view = await viewAsOperator(operator, request.access, (records) => exportByteStream(request.chunks(records), onError, release));
  } finally {
    // Given up here unless the stream holds it (idempotent: the stream may have given it up already).
    if (!view || view.unavailable) release();
  }
  if (view.unavailable) throw databaseUnavailableError(view.cause, OPERATOR_DATA_UNAVAILABLE_MESSAGE);
  return new NextResponse(view.data, {
    headers: {
      "content-type": request.format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${request.fileName}"`,
      "cache-control": "no-store",
      // A proxy that buffers (nginx does by default) would hold the whole file.
      "x-accel-buffering": "no",
    },
  });
}
