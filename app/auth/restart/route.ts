import type { NextRequest } from "next/server";
import { sameOriginPath, startSignIn } from "@/lib/auth/start-sign-in";

/**
 * Starts sign-in again after a callback failed its checks (see lib/auth/callback-recovery.ts, which
 * also guards against a loop). A GET, because it is reached by a redirect.
 */
export async function GET(req: NextRequest) {
  return startSignIn(sameOriginPath(req.nextUrl.searchParams.get("callbackUrl")));
}
