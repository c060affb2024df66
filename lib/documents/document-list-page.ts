import "server-only";
import { isDatabaseUnavailable } from "@/lib/db/database-errors";
import { DOCUMENTS_PER_PAGE, type DocumentListParams } from "@/lib/documents/document-list-params";
import { listDocuments, type DocumentPage } from "@/lib/documents/document-records";
import { AppError } from "@/lib/errors";

/**
 * What the `/documents` list shows: a page, or that the database is down. `fellBack`: the URL's cursor was not one
 * (malformed, or a time outside the database's range), so this is the first page and the list says so.
 */
export type LoadedDocumentList = { page: DocumentPage; fellBack: boolean } | { problem: "database" };

/** One page of the user's list for the page's URL parameters; never fails on a bad cursor. */
export async function loadDocumentListPage(userKey: string, params: DocumentListParams, list = listDocuments): Promise<LoadedDocumentList> {
  const load = (cursor: string) =>
    list(userKey, {
      ...(params.q ? { q: params.q } : {}),
      ...(params.doctype ? { doctype: params.doctype } : {}),
      ...(params.status ? { status: params.status } : {}),
      ...(cursor ? { cursor } : {}),
      limit: DOCUMENTS_PER_PAGE,
    });
  try {
    try {
      return { page: await load(params.cursor), fellBack: params.badCursor };
    } catch (error) {
      if (!(error instanceof AppError && error.code === "VALIDATION_FAILED")) throw error;
      return { page: await load(""), fellBack: true };
    }
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { problem: "database" };
    throw error;
  }
}
