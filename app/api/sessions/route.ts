import { NextResponse } from "next/server";
import { requireSession } from "@/lib/auth/require-access-token";
import { setFreshLoginMarker } from "@/lib/auth/fresh-login-marker";
import { withErrorHandling } from "@/lib/route-handler";
import { endAllUserSessions, listUserSessions } from "@/lib/session/user-sessions";

const NO_STORE = { "cache-control": "no-store" };

/** The signed-in user's live sessions (browser, system, signed in, last seen), this one marked `current`. */
export const GET = withErrorHandling(async (req) => {
  const current = await requireSession(req, "sessions");
  return NextResponse.json({ sessions: await listUserSessions(current) }, { headers: NO_STORE });
});

/** Sign out everywhere: ends every session of the user, this one included, revoking their refresh tokens. */
export const DELETE = withErrorHandling(async (req) => {
  const current = await requireSession(req, "sessions");
  const res = NextResponse.json(await endAllUserSessions(current), { headers: NO_STORE });
  setFreshLoginMarker(req, res);
  return res;
});
