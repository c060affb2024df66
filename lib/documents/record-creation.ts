import "server-only";
import type { NextRequest } from "next/server";
import { describeDatabaseError } from "@/lib/db/database-errors";
import { createdDocumentFactsSchema } from "@/lib/documents/document-record-input";
import { recordCreated } from "@/lib/documents/document-records";
import { recordContextOf, userKeyFromCookie } from "@/lib/documents/request-user";
import type { CreateDocumentInput, CreateDocumentResult } from "@/lib/esign/schemas";
import { AppError } from "@/lib/errors";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";

/**
 * How long the create route waits for the "created" record before answering without it. The upload is the user's
 * real work and must not wait on the database: a healthy one answers in milliseconds, and past this the browser is
 * told `recorded: false` and reports the creation itself later (the write may still land; the two make one entry).
 */
export const RECORD_CREATED_WAIT_MS = 1_500;

async function record(req: NextRequest, created: CreateDocumentResult, input: CreateDocumentInput, requestedAt: Date): Promise<boolean | "erased"> {
  const userKey = await userKeyFromCookie(req);
  if (!userKey) return false;
  // Only the facts, through the same rules as the browser's reports: never `sas`, `uploadendpoint` or `url`.
  const facts = createdDocumentFactsSchema.parse({
    fileId: created.fileId,
    subdocid: created.subdocid,
    container: created.container ?? null,
    name: input.name,
    doctype: input.doctype,
  });
  await recordCreated(userKey, { itemId: created.itemId, ...facts }, recordContextOf(req), requestedAt);
  return true;
}

/**
 * Records that the service created a document, waiting at most RECORD_CREATED_WAIT_MS; `requestedAt` (the create
 * request's start) is its creation time. Never throws: resolves whether the record is known to be written, or
 * "erased" when the user's records were erased while the creation was under way (the record is refused for good).
 */
export function recordCreationWithin(req: NextRequest, created: CreateDocumentResult, input: CreateDocumentInput, waitMs = RECORD_CREATED_WAIT_MS, requestedAt = new Date()): Promise<boolean | "erased"> {
  const requestId = currentRequestId();
  const attempt = record(req, created, input, requestedAt).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "RECORDS_ERASED") {
      getLogger().info({ msg: `document record: "created" not written: the user's records were erased while it was asked for`, requestId });
      return "erased" as const;
    }
    getLogger().warn({ msg: `document record: "created" not written (${describeDatabaseError(error)}); the browser will report it again`, requestId });
    return false;
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      getLogger().warn({ msg: `document record: "created" not written within ${waitMs} ms; answering without it`, requestId });
      resolve(false);
    }, waitMs);
  });
  return Promise.race([attempt, deadline]).finally(() => clearTimeout(timer));
}
