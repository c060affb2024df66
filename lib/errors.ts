import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";

/** Stable error codes shared by route handlers and the UI; the human text travels with each AppError as `userMessage`. */
export type ErrorCode =
  | "UNAUTHENTICATED"
  | "SESSION_EXPIRED"
  | "SESSION_STORE_UNAVAILABLE"
  | "SESSION_NOT_FOUND"
  | "VALIDATION_FAILED"
  | "NAME_TOO_SHORT"
  | "CUSTOMER_NOT_FOUND"
  | "INSUFFICIENT_SCOPE"
  | "CROSS_SITE_REQUEST"
  | "PAYLOAD_TOO_LARGE"
  | "SERVICE_UNAVAILABLE"
  | "DATABASE_UNAVAILABLE"
  | "DOCUMENT_NOT_FOUND"
  | "EVENT_LIMIT_REACHED"
  /** A write about records the user (or an operator) erased, arriving after the erasure (lib/erasure). */
  | "RECORDS_ERASED"
  | "RATE_LIMITED"
  | "SERVICE_RATE_LIMITED"
  /** An operator route asked by anyone who is not an operator (lib/operators/operator-access.ts): as if it did not exist. */
  | "NOT_FOUND"
  | "SERVICE_TIMEOUT"
  | "BAD_UPSTREAM_RESPONSE"
  | "INTERNAL";

export type ErrorBody = {
  error: {
    code: ErrorCode;
    message: string;
    requestId?: string;
    fields?: Record<string, string[]>;
    /** A 429's budget: one of the app's (lib/rate-limit/policies.ts), or `service` for the service's own. */
    limit?: string;
    /** A 429's wait, as in its Retry-After header. */
    retryAfterSeconds?: number;
  };
};

/** What a 429 carries besides its code: which budget, how long to wait, and its response headers. */
export type RateLimitDetails = { limit: string; retryAfterSeconds: number; headers: Record<string, string> };

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    readonly userMessage: string,
    readonly fields?: Record<string, string[]>,
    options?: { cause?: unknown; rateLimit?: RateLimitDetails },
  ) {
    super(userMessage, options);
    this.name = "AppError";
    this.rateLimit = options?.rateLimit;
  }

  readonly rateLimit?: RateLimitDetails;
}

/** The session can no longer call the service (refresh refused, no refresh token, or the service said 401). */
export function sessionExpiredError(): AppError {
  return new AppError("SESSION_EXPIRED", 401, "Your session has expired. Please sign in again.");
}

/** The session store (Redis) cannot be reached: nobody is signed out, the request can be retried shortly. */
export function sessionStoreUnavailableError(cause?: unknown): AppError {
  return new AppError(
    "SESSION_STORE_UNAVAILABLE",
    503,
    "Sign-in is temporarily unavailable on our side. You are still signed in; please try again in a moment.",
    undefined,
    { cause },
  );
}

/** No session of the signed-in user has that id: already ended, expired, or never theirs. */
export function sessionNotFoundError(): AppError {
  return new AppError("SESSION_NOT_FOUND", 404, "That session has already ended.");
}

const DOCUMENTS_UNAVAILABLE_MESSAGE = "Your document list is temporarily unavailable. Uploads still work, and their records will be added when it is back.";
/** The same 503 on an operator route: no upload of the operator's is at stake there. */
export const OPERATOR_DATA_UNAVAILABLE_MESSAGE = "The database is not answering: operator data and exports are unavailable until it is back.";

/**
 * The document records' database cannot be reached or answered too slowly. The upload itself never depends on it:
 * the browser keeps its reports and sends them again.
 */
export function databaseUnavailableError(cause?: unknown, userMessage = DOCUMENTS_UNAVAILABLE_MESSAGE): AppError {
  return new AppError("DATABASE_UNAVAILABLE", 503, userMessage, undefined, { cause });
}

/** No document of the signed-in user has that id: never recorded, removed from the list, or someone else's. */
export function documentNotFoundError(): AppError {
  return new AppError("DOCUMENT_NOT_FOUND", 404, "That document is not in your list.");
}

/**
 * A creation or report for a document made before the user's records were erased (lib/erasure/erasure-lock.ts). Gone
 * for good: the browser's outbox drops it (a 4xx), and an upload whose creation it was ends with this sentence.
 */
export function recordsErasedError(): AppError {
  return new AppError("RECORDS_ERASED", 410, "Your records at this app were erased while this upload was under way, so it is not recorded here.");
}

/**
 * A report would take a document's audit trail past `max` events (lib/documents/document-records.ts). Sending it
 * again cannot change that: the browser's outbox drops it (a 4xx) instead of retrying.
 */
export function eventLimitError(max: number): AppError {
  return new AppError("EVENT_LIMIT_REACHED", 409, `This document's history is full: it keeps at most ${max} events.`, {
    events: [`a document keeps at most ${max} events`],
  });
}

/** Turns any thrown value into the JSON error shape; unexpected errors are logged with a request id and never leak internals. */
export function toErrorResponse(error: unknown, requestId: string = currentRequestId() ?? crypto.randomUUID()): NextResponse<ErrorBody> {
  if (error instanceof ZodError) {
    error = validationError(error);
  }
  if (error instanceof AppError) {
    if (error.status >= 500) {
      getLogger().error({ msg: `${error.code}: ${describeCause(error)}`, requestId, code: error.code });
    }
    const body: ErrorBody = { error: { code: error.code, message: error.userMessage } };
    if (error.fields) body.error.fields = error.fields;
    if (error.status >= 500) body.error.requestId = requestId;
    if (error.rateLimit) Object.assign(body.error, { limit: error.rateLimit.limit, retryAfterSeconds: error.rateLimit.retryAfterSeconds });
    return NextResponse.json(body, { status: error.status, headers: { ...error.rateLimit?.headers, "x-request-id": requestId } });
  }
  getLogger().error({ msg: `unexpected error: ${describeCause(error)}`, requestId, code: "INTERNAL" });
  return NextResponse.json(
    {
      error: {
        code: "INTERNAL",
        message: `Something went wrong on our side. If it keeps happening, quote reference ${requestId}.`,
        requestId,
      },
    },
    { status: 500, headers: { "x-request-id": requestId } },
  );
}

/**
 * A 400 carrying zod's per-field messages. An unknown key is named itself (zod puts the issue on the object that
 * holds it), and a key with an empty name as `""`, so that every message names a field the sender can find.
 */
export function validationError(error: ZodError): AppError {
  // A Map, then own properties: a key the sender chose ("constructor", "__proto__") must not meet Object's own.
  const named = new Map<string, string[]>();
  const add = (key: string, message: string) => named.set(key, [...(named.get(key) ?? []), message]);
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      // zod words one issue for all of an object's unknown keys; each key gets the sentence for itself.
      for (const key of issue.keys) add([...issue.path, key === "" ? '""' : key].join("."), `Unrecognized key: ${JSON.stringify(key)}`);
      continue;
    }
    add(issue.path.join(".") || "_", issue.message);
  }
  const first = error.issues[0]?.message ?? "The request is not valid.";
  return new AppError("VALIDATION_FAILED", 400, first, Object.fromEntries(named));
}

// Only the error's name, message and cause chain: never request headers or bodies, which may hold tokens.
function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current instanceof Error) {
      parts.push(`${current.name}: ${current.message}`);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join(" <- ");
}
