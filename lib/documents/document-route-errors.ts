import "server-only";
import { DatabaseUnavailableError } from "@/lib/db/database-errors";
import { databaseUnavailableError } from "@/lib/errors";

/**
 * Runs a repository call for a route: the database being down or too slow becomes the 503 DATABASE_UNAVAILABLE, with
 * the document routes' message unless the route has its own.
 */
export async function withDocumentRecords<T>(work: () => Promise<T>, userMessage?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) throw databaseUnavailableError(error, userMessage);
    throw error;
  }
}
