import { NextResponse } from "next/server";
import { requireAccessToken } from "@/lib/auth/require-access-token";
import { createDocument } from "@/lib/esign/client";
import { createDocumentInputSchema } from "@/lib/esign/schemas";
import { AppError } from "@/lib/errors";
import { withErrorHandling } from "@/lib/route-handler";

/**
 * Creates a document at the service and returns its ids and upload endpoint. The browser then PUTs the
 * file straight to that endpoint: the file's bytes never come through here.
 */
export const POST = withErrorHandling(async (req) => {
  const accessToken = await requireAccessToken(req);
  const body: unknown = await req.json().catch(() => {
    throw new AppError("VALIDATION_FAILED", 400, "The request body must be JSON.");
  });
  const input = createDocumentInputSchema.parse(body);
  const created = await createDocument(accessToken, input);
  return NextResponse.json(created, { status: 201, headers: { "cache-control": "no-store" } });
});
