import "server-only";
import type { NextRequest } from "next/server";
import { requireSession } from "@/lib/auth/require-access-token";
import { readSessionToken } from "@/lib/auth/session-cookie";
import { userKeyFor } from "@/lib/auth/user-key";
import type { RecordContext } from "@/lib/documents/document-records";
import type { LimitName } from "@/lib/rate-limit/policies";
import { getConfig } from "@/lib/env";
import { currentRequestId } from "@/lib/logging/request-context";
import { describeDevice } from "@/lib/session/device";
import { formatDeviceLabel } from "@/lib/session/device-label";

/** "Chrome 131 on macOS 15": stored in English; a page names it in its own language (lib/i18n/device-name.ts). */
export function deviceLabel(userAgent: string | null | undefined): string {
  return formatDeviceLabel(describeDevice(userAgent));
}

/** The request id and device kept with each event the request writes. */
export function recordContextOf(req: NextRequest): RecordContext {
  const requestId = currentRequestId();
  return { ...(requestId ? { requestId } : {}), device: deviceLabel(req.headers.get("user-agent")) };
}

/**
 * The signed-in user's key for their document records (the same key as their data in the browser: a hash of issuer
 * and subject), and the request's context: 401 without a live session, 503 while the session store is down, 429 once
 * the user's `budget` is spent (requireSession).
 */
export async function requireDocumentUser(req: NextRequest, budget: LimitName): Promise<{ userKey: string; ctx: RecordContext }> {
  const { record } = await requireSession(req, budget);
  return { userKey: userKeyFor(getConfig().issuer, record.subject), ctx: recordContextOf(req) };
}

/**
 * The user key from the session cookie alone, for a route that has already checked the session (the create route,
 * through requireAccessToken): the cookie is decrypted once per value and cached, so this reads no store.
 */
export async function userKeyFromCookie(req: NextRequest): Promise<string | null> {
  const token = await readSessionToken(req);
  return token?.sub ? userKeyFor(getConfig().issuer, token.sub) : null;
}
