import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { formatRestartLog, parseRestartLog, startedEntry } from "@/lib/auth/restart-guard";
import { servesHttps } from "@/lib/app-origin";
import { markerCookieOptions, RESTARTED_COOKIE } from "@/lib/auth/sign-in-markers";
import { sameOriginPath, startSignIn } from "@/lib/auth/start-sign-in";

/**
 * Starts sign-in again after a callback failed its checks (see lib/auth/callback-recovery.ts). A GET,
 * because it is reached by a redirect. The flow started here is added to the loop guard's list as the
 * latest started: if it fails while it still owns the check cookies, it ends on the message instead
 * of restarting (lib/auth/restart-guard.ts).
 */
export async function GET(req: NextRequest) {
  const log = parseRestartLog(req.cookies.get(RESTARTED_COOKIE)?.value);
  return startSignIn(sameOriginPath(req.nextUrl.searchParams.get("callbackUrl")), {
    onStarted: async (authorizationUrl) => {
      const started = startedEntry(authorizationUrl.searchParams.get("state"));
      (await cookies()).set(RESTARTED_COOKIE, formatRestartLog([...log, started]), markerCookieOptions(RESTARTED_COOKIE, servesHttps(req)));
    },
  });
}
