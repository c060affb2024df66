import "server-only";
import type { ExportFormat, OperatorPeriod } from "@/lib/operators/types";

/** The period's documents across users (created in [from, to)), as CSV (with BOM) or JSON, in keyset batches. */
export function streamOperatorExport(period: Pick<OperatorPeriod, "from" | "to">, format: ExportFormat): ReadableStream<Uint8Array> {
  void period;
  void format;
  throw new Error("not implemented");
}

/** The whole access log, oldest first, as CSV (with BOM) or JSON, in keyset batches. */
export function streamOperatorAccessExport(format: ExportFormat): ReadableStream<Uint8Array> {
  void format;
  throw new Error("not implemented");
}
