import { NextResponse } from "next/server";
import { accessTokenOf, requireSession } from "@/lib/auth/require-access-token";
import { documentListQuerySchema } from "@/lib/documents/document-record-input";
import { listDocuments } from "@/lib/documents/document-records";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { RECORD_CREATED_WAIT_MS, recordCreationWithin } from "@/lib/documents/record-creation";
import { requireDocumentUser } from "@/lib/documents/request-user";
import { createDocument } from "@/lib/esign/client";
import { createDocumentInputSchema } from "@/lib/esign/schemas";
import { recordDocumentCreated, recordUploadRenewal } from "@/lib/metrics/documents";
import { readJsonObject, withErrorHandling } from "@/lib/route-handler";
import { UPLOAD_RENEWAL_HEADER } from "@/lib/upload-renewal";
import { recordsErasedError } from "@/lib/errors";

/** A document-creation request is three short fields; anything near this size is not one. */
const MAX_BODY_BYTES = 16 * 1024;

// Reads the session and writes the document record on every call.
export const dynamic = "force-dynamic";

/**
 * Creates a document at the service and returns its ids and upload endpoint. The browser then PUTs the
 * file straight to that endpoint: the file's bytes never come through here. The "created" record is written
 * within a bounded wait and fails the request only when the user's records were erased since it began (410
 * RECORDS_ERASED): otherwise `recorded: false` tells the browser to report it later.
 */
export const POST = withErrorHandling(async (req) => {
  // The document counts as created when it was asked for: an erasure of the user's records meanwhile wins (lib/erasure).
  const requestedAt = new Date();
  const { record: session } = await requireSession(req, "documents-create");
  const accessToken = accessTokenOf(session);
  const input = createDocumentInputSchema.parse(await readJsonObject(req, MAX_BODY_BYTES));
  const created = await createDocument(accessToken, input);
  recordDocumentCreated();
  if (req.headers.get(UPLOAD_RENEWAL_HEADER) === "1") recordUploadRenewal();
  const recorded = await recordCreationWithin(req, created, input, RECORD_CREATED_WAIT_MS, requestedAt);
  // The user's records were erased while this was under way: the upload stops here, with the sentence for it.
  if (recorded === "erased") throw recordsErasedError();
  return NextResponse.json({ ...created, recorded }, { status: 201, headers: { "cache-control": "no-store" } });
});

/**
 * One page of the signed-in user's document list, newest first (removed ones excluded): `?q=` searches names,
 * `doctype=` and `status=` filter, `limit=` (1–100, default 50), `cursor=` continues from a page's `nextCursor`.
 * 503 DATABASE_UNAVAILABLE while the database is down.
 */
export const GET = withErrorHandling(async (req) => {
  const { userKey } = await requireDocumentUser(req, "documents-list");
  const query = documentListQuerySchema.parse(Object.fromEntries(req.nextUrl.searchParams));
  const page = await withDocumentRecords(() => listDocuments(userKey, query));
  return NextResponse.json(page, { headers: { "cache-control": "no-store" } });
});
