import "server-only";
import { isDatabaseUnavailable } from "@/lib/db/database-errors";
import { operatorRecords, type OperatorRecords } from "@/lib/operators/operator-records";
import type { Operator, OperatorAccessInput } from "@/lib/operators/types";

/** What an operator page or export has to show: the data, or that the database is unavailable (and nothing else). */
export type OperatorView<T> = { unavailable: false; data: T } | { unavailable: true; cause: unknown };

/**
 * The one path by which every operator page and export reaches users' data: the look is written to the access log
 * first, and only once it is written is the data read (`read` gets the records to read from). A failure counted as
 * "database unavailable", of the log write or of the read, gives `unavailable` and no data, so nothing is ever shown
 * that the log does not hold (a full disk fails writes while reads still work). Any other failure is thrown. A look
 * at a record that turns out not to exist is logged too.
 */
export async function viewAsOperator<T>(
  operator: Operator,
  access: OperatorAccessInput,
  read: (records: OperatorRecords) => Promise<T>,
  records: OperatorRecords = operatorRecords,
): Promise<OperatorView<T>> {
  try {
    await records.recordOperatorAccess(operator, access);
    return { unavailable: false, data: await read(records) };
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return { unavailable: true, cause: error };
  }
}
