/**
 * The shapes the operator pages read (lib/operators/*). Types only, no code: a client component may `import type`
 * them without pulling operator code into any bundle. Times are ISO 8601 strings (UTC).
 */
import type { DocumentEventType, DocumentStatus, OperatorAccessAction } from "@/lib/db/schema";

/** The signed-in operator: their user key and the verified email that made them one (OPERATOR_EMAILS). */
export type Operator = { userKey: string; email: string };

/** A user as the app keeps them (lib/db/schema.ts `users`): filled at sign-in; null fields when the service sent none. */
export type OperatorUserRecord = {
  userKey: string;
  /** Only an email the service marked verified (`email_verified: true`); null otherwise. */
  email: string | null;
  displayName: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
};

/** `from` inclusive, `to` exclusive; days are counted in `timeZone` (an IANA name, e.g. "Asia/Tokyo"). */
export type OperatorPeriod = { from: Date; to: Date; timeZone: string };

/**
 * The period's documents: those created in it, by their status now ("cancelled" is the stored status "abandoned").
 * `completionRate` is uploaded / created (null when none were created). Times from creation to the first
 * "uploaded" event, of the period's uploaded documents (null when there are none).
 */
export type OperatorOverview = {
  period: { from: string; to: string; timeZone: string };
  created: number;
  uploaded: number;
  failed: number;
  cancelled: number;
  replaced: number;
  /** Still "created" (no upload started) or "uploading". */
  pending: number;
  completionRate: number | null;
  creationToUploadMs: { median: number | null; p95: number | null };
  /** The failed documents by the error code of their last "failed" event (null: the report named none); most first. */
  failuresByCode: { errorCode: string | null; count: number }[];
  /** Users with at least one event recorded in the period. */
  activeUsers: number;
  /** One entry per calendar day of the period in `timeZone`, oldest first, days without documents included. */
  days: { day: string; created: number; uploaded: number; failed: number }[];
};

export type StuckKind = "never_uploaded" | "upload_silent";

export type StuckDocumentsQuery = {
  /** Injected so tests (and the e2e's time switch) decide what "now" is. */
  now: Date;
  /** A document still "created" (no upload started) this long after its creation. Default 1 hour. */
  neverUploadedAfterMs?: number;
  /** A document "uploading" with no event for this long. Default 30 minutes. */
  silentUploadAfterMs?: number;
  /** Default 100, at most 500. */
  limit?: number;
  /** The page after the one that ended with this row (`StuckPage.next`). */
  after?: StuckCursor;
};

/**
 * Where a page of the stuck list ended: its last row's last event, by time (microseconds since the epoch) and id. The
 * list is ordered by these two, so the next page starts after it even if that row has since left the list.
 */
export type StuckCursor = { atMicros: number; eventId: number };

export type StuckPage = {
  documents: StuckDocument[];
  /** Stuck documents in all, on every page. */
  total: number;
  /** How many come before this page. */
  skipped: number;
  next: StuckCursor | null;
};

export type StuckDocument = {
  kind: StuckKind;
  userKey: string;
  itemId: string;
  email: string | null;
  displayName: string | null;
  name: string;
  status: DocumentStatus;
  createdAt: string;
  lastEvent: { type: DocumentEventType; at: string; errorCode: string | null; device: string | null };
  /** now − the last event's time. */
  ageMs: number;
};

export type OperatorUserSummary = OperatorUserRecord & { documentCount: number };

export type OperatorDocumentSummary = {
  userKey: string;
  itemId: string;
  email: string | null;
  name: string;
  doctype: string;
  status: DocumentStatus;
  createdAt: string;
  updatedAt: string;
  /** Set when the user removed it from their list (its trail is kept). */
  removedAt: string | null;
};

export type OperatorSearchResult = {
  /** The query as searched (trimmed). */
  query: string;
  users: OperatorUserSummary[];
  documents: OperatorDocumentSummary[];
};

export type OperatorUserPage = {
  /** Null for a user key that has documents but signed in before the app kept users (no email or name known). */
  user: OperatorUserRecord | null;
  userKey: string;
  documents: OperatorDocumentSummary[];
  /** Continues the list (newest first), as the user's own list does. */
  nextCursor: string | null;
};

export type OperatorEvent = {
  eventId: string;
  type: DocumentEventType;
  at: string;
  recordedAt: string;
  requestId: string | null;
  device: string | null;
  /** As recorded (mode, bytes, md5, durationMs, errorCode …): validated facts, never a link, SAS or token. */
  details: Record<string, unknown>;
};

export type OperatorDocumentPage = {
  user: OperatorUserRecord | null;
  document: OperatorDocumentSummary & { fileId: string; subdocid: number; container: string | null; size: number | null; md5: string | null; replacedByItemId: string | null };
  /** Oldest first, the trail the user sees on their own document page. */
  events: OperatorEvent[];
};

export type { OperatorAccessAction };

/** One line of the access log: who (operator) looked at what, when. Never edited. */
export type OperatorAccessEntry = {
  id: number;
  at: string;
  operatorUserKey: string;
  operatorEmail: string;
  action: OperatorAccessAction;
  /** The user whose records were opened (view_user, view_document), else null. */
  subjectUserKey: string | null;
  /** That user's verified email as the app keeps it now (null: unknown, or the user record is gone). */
  subjectEmail: string | null;
  itemId: string | null;
  /** What was asked: the search text, or the export's period and format. */
  detail: string | null;
};

export type OperatorAccessInput = {
  action: OperatorAccessAction;
  subjectUserKey?: string;
  itemId?: string;
  detail?: string;
};
