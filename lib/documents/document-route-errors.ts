import "server-only";
import { DatabaseUnavailableError } from "@/lib/db/database-errors";
import { databaseUnavailableError } from "@/lib/errors";

/** Runs a repository call for a route: the database being down or too slow becomes the 503 DATABASE_UNAVAILABLE. */
export async function withDocumentRecords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) throw databaseUnavailableError(error);
    throw error;
  }
}
