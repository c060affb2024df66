import { NextResponse } from "next/server";
import { requireSession } from "@/lib/auth/require-access-token";
import { setFreshLoginMarker } from "@/lib/auth/fresh-login-marker";
import { eraseOwnRecords } from "@/lib/erasure/erase-own-records";
import { userErasureInputSchema } from "@/lib/erasure/erasure-input";
import { readJsonObject, withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

/**
 * "Delete my records": `{ "confirm": "erase-my-records" }` erases the signed-in user's document records, their
 * events and user record (lib/erasure), then ends every session of the user, this one included, with refresh tokens
 * revoked at the service. 200 `{ erased: { documents, events, user }, sessionsEnded }`; 400 naming `confirm`; 503
 * while the database (nothing erased) or the session store (records erased, sessions not yet ended) does not answer:
 * the same request again completes it.
 */
export const POST = withErrorHandling(async (req) => {
  const current = await requireSession(req, "records-erase");
  userErasureInputSchema.parse(await readJsonObject(req, 1024));
  const res = NextResponse.json(await eraseOwnRecords(current), { headers: { "cache-control": "no-store" } });
  setFreshLoginMarker(req, res);
  return res;
});
