import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { InvalidLogoutTokenError, LogoutTokenKeysUnavailableError, verifyLogoutToken } from "@/lib/auth/logout-token";
import { toErrorResponse } from "@/lib/errors";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { mediaTypeOf, readBodyText } from "@/lib/route-handler";
import { endSessionsForLogoutToken } from "@/lib/session/backchannel-logout";
import { isSessionStoreUnavailable } from "@/lib/session/session-store";

/** A logout token is one signed JWT of a few claims; anything near this size is not one. */
const MAX_BODY_BYTES = 16 * 1024;

const logoutRequestSchema = z.object({ logout_token: z.string().min(1) });

const NO_STORE = { "cache-control": "no-store" };

/** The spec's error answer (Back-Channel Logout 1.0 §2.8, OAuth 2.0's error shape), not the app's own. */
function invalidRequest(description: string): NextResponse {
  getLogger().warn({ msg: `back-channel logout refused: ${description}`, requestId: currentRequestId() });
  return NextResponse.json({ error: "invalid_request", error_description: description }, { status: 400, headers: NO_STORE });
}

function temporarilyUnavailable(detail: string): NextResponse {
  getLogger().warn({ msg: `back-channel logout not processed, the service may retry: ${detail}`, requestId: currentRequestId() });
  return NextResponse.json(
    { error: "temporarily_unavailable", error_description: "The logout could not be processed just now; try again." },
    { status: 503, headers: { ...NO_STORE, "retry-after": "5" } },
  );
}

/**
 * OpenID Connect Back-Channel Logout: the service posts a signed logout token here (server to server, so no
 * same-origin check and no session cookie) when one of its sessions ends; the app's sessions it names end
 * before their browsers' next request. Their refresh tokens are not revoked here: the service ended them.
 */
export async function POST(req: NextRequest): Promise<NextResponse> {
  if (mediaTypeOf(req) !== "application/x-www-form-urlencoded") return invalidRequest("the body must be application/x-www-form-urlencoded");
  const body = await readBodyText(req, MAX_BODY_BYTES);
  if (body === null) return invalidRequest(`the body must be at most ${MAX_BODY_BYTES} bytes`);
  const parsed = logoutRequestSchema.safeParse(Object.fromEntries(new URLSearchParams(body)));
  if (!parsed.success) return invalidRequest("logout_token is missing");

  try {
    const claims = await verifyLogoutToken(parsed.data.logout_token);
    const { replayed } = await endSessionsForLogoutToken(claims);
    if (replayed) return invalidRequest("logout_token was already used (jti seen before)");
    // 200 also when no session matched: the user may have signed out here first.
    return new NextResponse(null, { status: 200, headers: NO_STORE });
  } catch (error) {
    if (error instanceof InvalidLogoutTokenError) return invalidRequest(`logout_token is not valid: ${error.message}`);
    if (error instanceof LogoutTokenKeysUnavailableError || isSessionStoreUnavailable(error)) return temporarilyUnavailable(error.message);
    return toErrorResponse(error);
  }
}
