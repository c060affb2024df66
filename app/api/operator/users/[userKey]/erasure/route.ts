import { NextResponse } from "next/server";
import { eraseUserByOperator } from "@/lib/erasure/erase-by-operator";
import { operatorErasureInputSchema } from "@/lib/erasure/erasure-input";
import { requireOperatorForRequest } from "@/lib/operators/operator-access";
import { readJsonObject, withErrorHandling } from "@/lib/route-handler";

export const dynamic = "force-dynamic";

/**
 * An operator erases a user's records: `{ "reason": "…" }` (3–300 characters, no email address). 200
 * `{ erased: { documents, events, user } }`, with the access log's `erase_user` line written in the same transaction;
 * 400 naming `reason` or `userKey` (an operator's own key: their account page does that); 503 while the database does
 * not answer (nothing erased, nothing logged). Its "operator-erase" budget is spent and anyone but an operator is
 * turned away in proxy.ts (answered as for a path that does not exist), before any validation.
 */
export const POST = withErrorHandling(async (req, { params }: { params: Promise<{ userKey: string }> }) => {
  const operator = await requireOperatorForRequest(req);
  const { reason } = operatorErasureInputSchema.parse(await readJsonObject(req, 4096));
  const { userKey } = await params;
  const erased = await eraseUserByOperator(operator, userKey, reason);
  return NextResponse.json({ erased }, { headers: { "cache-control": "no-store" } });
});
