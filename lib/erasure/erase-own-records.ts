import "server-only";
import { userKeyFor } from "@/lib/auth/user-key";
import { publishErasureLedgerAfterErasure } from "@/lib/backup/erasure-ledger-copy";
import { withDocumentRecords } from "@/lib/documents/document-route-errors";
import { getConfig } from "@/lib/env";
import { erasureRecords, type UserRecordCounts } from "@/lib/erasure/user-erasure";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { endAllUserSessions, type CurrentSession } from "@/lib/session/user-sessions";

/** What "Delete my records" tells the browser: what went, and how many sessions ended (this one among them). */
export type OwnErasureResult = { erased: UserRecordCounts; sessionsEnded: number };

export const ERASURE_UNAVAILABLE_MESSAGE = "The database is not answering, so nothing was erased. Please try again shortly.";

/**
 * "Delete my records": erases the signed-in user's records in one transaction (lib/erasure/user-erasure.ts), then
 * ends every session of the user with their refresh tokens revoked at the service, as "Sign out everywhere" does.
 * In that order: a database that does not answer (503) leaves the user signed in with nothing erased, to try again;
 * a session store that does not answer after the erasure (503) leaves the records erased, and the same request again
 * finds nothing left to erase and ends the sessions. Either way a retry ends where a first success would.
 */
export async function eraseOwnRecords(current: CurrentSession): Promise<OwnErasureResult> {
  const userKey = userKeyFor(getConfig().issuer, current.record.subject);
  const erasure = await withDocumentRecords(() => erasureRecords.eraseUserRecords(userKey), ERASURE_UNAVAILABLE_MESSAGE);
  // Counts only: the log never names the user's documents or email.
  getLogger().info({ msg: `records erased on the user's request: ${erasure.documents} document(s), ${erasure.events} event(s)`, requestId: currentRequestId() });
  // The ledger's copy beside the backups, so a restore after a lost disk erases them again (lib/backup).
  await publishErasureLedgerAfterErasure();
  const { ended } = await endAllUserSessions(current);
  return { erased: { documents: erasure.documents, events: erasure.events, user: erasure.user }, sessionsEnded: ended };
}
