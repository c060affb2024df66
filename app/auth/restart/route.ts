import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { formatSpentFlows, flowKey, parseSpentFlows } from "@/lib/auth/restart-guard";
import { markerCookieOptions, RESTARTED_COOKIE, usesSecureCookies } from "@/lib/auth/sign-in-markers";
import { sameOriginPath, startSignIn } from "@/lib/auth/start-sign-in";

/**
 * Starts sign-in again after a callback failed its checks (see lib/auth/callback-recovery.ts). A GET,
 * because it is reached by a redirect. The flow started here is added to the loop guard's list, so
 * that if it fails too it ends on the message instead of restarting (lib/auth/restart-guard.ts).
 */
export async function GET(req: NextRequest) {
  const spent = parseSpentFlows(req.cookies.get(RESTARTED_COOKIE)?.value);
  return startSignIn(sameOriginPath(req.nextUrl.searchParams.get("callbackUrl")), {
    onStarted: async (authorizationUrl) => {
      const started = flowKey(authorizationUrl.searchParams.get("state"));
      (await cookies()).set(RESTARTED_COOKIE, formatSpentFlows([...spent, started]), markerCookieOptions(RESTARTED_COOKIE, usesSecureCookies(req.nextUrl.href)));
    },
  });
}
