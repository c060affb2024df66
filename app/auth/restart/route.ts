import { cookies } from "next/headers";
import { NextResponse, type NextRequest } from "next/server";
import { appOrigin, servesHttps } from "@/lib/app-origin";
import { formatRestartLog, parseRestartLog, startedEntry } from "@/lib/auth/restart-guard";
import { markerCookieOptions, RESTARTED_COOKIE } from "@/lib/auth/sign-in-markers";
import { sameOriginPath, startSignIn } from "@/lib/auth/start-sign-in";
import { isSameOriginNavigation } from "@/lib/security/same-origin";

/**
 * Starts sign-in again after a callback failed its checks (see lib/auth/callback-recovery.ts). A GET,
 * reached from the app's own "Signing you in again" page. Only a same-origin navigation acts: a link
 * from another site would otherwise start a flow and overwrite the check cookies of a sign-in in
 * progress, so it lands on the landing page with nothing changed. The flow started here is added to the loop guard's list as the
 * latest started: if it fails while it still owns the check cookies, it ends on the message instead
 * of restarting (lib/auth/restart-guard.ts).
 */
export async function GET(req: NextRequest) {
  if (!isSameOriginNavigation(req)) return NextResponse.redirect(new URL("/", appOrigin(req)));
  const log = parseRestartLog(req.cookies.get(RESTARTED_COOKIE)?.value);
  return startSignIn(sameOriginPath(req.nextUrl.searchParams.get("callbackUrl")), {
    onStarted: async (authorizationUrl) => {
      const started = startedEntry(authorizationUrl.searchParams.get("state"));
      (await cookies()).set(RESTARTED_COOKIE, formatRestartLog([...log, started]), markerCookieOptions(RESTARTED_COOKIE, servesHttps(req)));
    },
  });
}
