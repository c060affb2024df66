import { NextResponse } from "next/server";
import { requireSession } from "@/lib/auth/require-access-token";
import { setFreshLoginMarker } from "@/lib/auth/fresh-login-marker";
import { withErrorHandling } from "@/lib/route-handler";
import { sessionIdSchema } from "@/lib/session/session-id";
import { endUserSession } from "@/lib/session/user-sessions";

/**
 * Ends one of the signed-in user's sessions, by the id GET /api/sessions lists: 404 SESSION_NOT_FOUND for any id
 * that is not a live session of this user. Ending this browser's own is signing out.
 */
export const DELETE = withErrorHandling(async (req, { params }: { params: Promise<{ id: string }> }) => {
  const current = await requireSession(req, "sessions");
  const id = sessionIdSchema.parse((await params).id);
  const result = await endUserSession(current, id);
  const res = NextResponse.json(result, { headers: { "cache-control": "no-store" } });
  if (result.endedCurrent) setFreshLoginMarker(req, res);
  return res;
});
