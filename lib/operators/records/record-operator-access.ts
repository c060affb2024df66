import "server-only";
import type { Database } from "@/lib/db/client";
import { operatorAccessLog, type OperatorAccessAction } from "@/lib/db/schema";
import type { Operator, OperatorAccessInput } from "@/lib/operators/types";

/** Appends one line to the access log; resolves once it is written (committed). */
export async function recordOperatorAccess(db: Database, operator: Operator, input: OperatorAccessInput): Promise<void> {
  await db.insert(operatorAccessLog).values({
    operatorUserKey: operator.userKey,
    operatorEmail: operator.email,
    action: input.action satisfies OperatorAccessAction,
    subjectUserKey: input.subjectUserKey ?? null,
    itemId: input.itemId ?? null,
    // Bounded: a search text is at most what the search takes.
    detail: input.detail?.slice(0, 500) ?? null,
  });
}
