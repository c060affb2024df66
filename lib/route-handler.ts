import "server-only";
import type { NextRequest, NextResponse } from "next/server";
import { AppError, sessionStoreUnavailableError, toErrorResponse } from "@/lib/errors";
import { routeLabel } from "@/lib/metrics/http-requests";
import { recordRateLimited } from "@/lib/metrics/rate-limits";
import { isSessionStoreUnavailable } from "@/lib/session/session-store";
import { assertSameOrigin } from "@/lib/security/same-origin";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Runs a route handler body: refuses cross-site state-changing requests first, then turns anything
 * the body throws into the JSON error shape (an unreachable session store into its 503). Each 429 — a budget of
 * ours spent, or the service's own — is counted by route and budget.
 */
export function withErrorHandling<C>(handler: (req: NextRequest, context: C) => Promise<NextResponse>) {
  return async (req: NextRequest, context: C): Promise<NextResponse> => {
    try {
      if (!SAFE_METHODS.has(req.method)) assertSameOrigin(req);
      return await handler(req, context);
    } catch (error) {
      if (error instanceof AppError && error.rateLimit) recordRateLimited(routeLabel(req.nextUrl.pathname), error.rateLimit.limit);
      return toErrorResponse(isSessionStoreUnavailable(error) ? sessionStoreUnavailableError(error) : error);
    }
  };
}

/** The request's media type, lower-cased, without parameters. */
export function mediaTypeOf(req: NextRequest): string | undefined {
  return (req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
}

/**
 * Reads a request body of at most `maxBytes` as text, without trusting Content-Length alone; resolves null when
 * it is larger.
 */
export async function readBodyText(req: NextRequest, maxBytes: number): Promise<string | null> {
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Reads a JSON request body of at most `maxBytes`, without trusting Content-Length alone.
 * Too large → 413; not JSON (by content type or syntax) → 400 naming `body`.
 */
export async function readJsonBody(req: NextRequest, maxBytes: number): Promise<unknown> {
  if (mediaTypeOf(req) !== "application/json") {
    throw new AppError("VALIDATION_FAILED", 400, "The request body must be JSON (Content-Type: application/json).", { body: ["must be sent as application/json"] });
  }
  const text = await readBodyText(req, maxBytes);
  if (text === null) throw new AppError("PAYLOAD_TOO_LARGE", 413, `The request body must be at most ${maxBytes} bytes.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("VALIDATION_FAILED", 400, "The request body is not valid JSON.", { body: ["is not valid JSON"] });
  }
}

/**
 * Reads a JSON request body that must be an object (as every JSON route here takes): JSON that parses to an array,
 * a string, a number or null is a 400 naming `body`, like one that does not parse.
 */
export async function readJsonObject(req: NextRequest, maxBytes: number): Promise<Record<string, unknown>> {
  const value = await readJsonBody(req, maxBytes);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("VALIDATION_FAILED", 400, "The request body must be a JSON object.", { body: ["must be a JSON object"] });
  }
  return value as Record<string, unknown>;
}
