/**
 * One signed-in browser as its user may see it (GET /api/sessions). `id` is the session's store id, a hash of
 * its handle: it names the session to end, and cannot open it.
 */
export type SessionSummary = {
  id: string;
  browser: string;
  os: string;
  /** ISO 8601. */
  signedInAt: string;
  lastSeenAt: string;
  current: boolean;
};
