import "server-only";
import { publishErasureLedgerAfterErasure } from "@/lib/backup/erasure-ledger-copy";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { erasureRecords, type UserRecordCounts } from "@/lib/erasure/user-erasure";
import { AppError } from "@/lib/errors";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import type { Operator } from "@/lib/operators/types";

/** User keys are base64url hashes (lib/auth/user-key.ts); anything else is not one and is not looked up. */
export const USER_KEY_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

const UNAVAILABLE = "The database is not answering, so nothing was erased and nothing was logged. Try again shortly.";

/**
 * An operator erases a user's records on the user's request (a phone call, a letter): the records go and the access
 * log gets its `erase_user` line (operator, user key, reason) in the same transaction, so neither happens without the
 * other. An operator cannot erase themselves here (400 naming `userKey`): their own account page does that, signing
 * them out everywhere. The user's sessions stay (sessions are found by the service's subject, which the app does not
 * keep beside the key); a creation or report for a document made before the erasure is refused from then on.
 */
export async function eraseUserByOperator(operator: Operator, userKey: string, reason: string): Promise<UserRecordCounts> {
  if (!USER_KEY_PATTERN.test(userKey)) throw new AppError("VALIDATION_FAILED", 400, "That is not a user key.", { userKey: ["is not a user key"] });
  if (userKey === operator.userKey) {
    throw new AppError("VALIDATION_FAILED", 400, "Operators erase their own records from their account page.", { userKey: ["is your own: use your account page"] });
  }
  const erasure = await withDocumentRecords(() => erasureRecords.eraseUserRecords(userKey, { operator, reason }), UNAVAILABLE);
  getLogger().info({ msg: `records erased by an operator: ${erasure.documents} document(s), ${erasure.events} event(s)`, requestId: currentRequestId() });
  // The ledger's copy beside the backups, so a restore after a lost disk erases them again (lib/backup).
  await publishErasureLedgerAfterErasure();
  return { documents: erasure.documents, events: erasure.events, user: erasure.user };
}
