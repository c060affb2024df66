import { NextResponse } from "next/server";
import { accessTokenOf, requireSession } from "@/lib/auth/require-access-token";
import { getUserInfo } from "@/lib/esign/client";
import { withErrorHandling } from "@/lib/route-handler";

/** The signed-in user's customer account and user record, from the service's getuserinfo. */
export const GET = withErrorHandling(async (req) => {
  const { record: session } = await requireSession(req, "account");
  const record = await getUserInfo(accessTokenOf(session));
  return NextResponse.json(record, { headers: { "cache-control": "no-store" } });
});
