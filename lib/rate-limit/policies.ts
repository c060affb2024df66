/**
 * The budgets: how many requests of one kind a user (or, before sign-in, a client address) may make per window.
 * Each default is far above what a person does with the app — docs/configuration.md ("Rate limits") says which
 * behaviour each one allows — so only a script or a runaway loop meets it. RATE_LIMIT_<NAME> overrides one as
 * `<requests>/<seconds>`.
 */
export const RATE_LIMIT_DEFAULTS = {
  /** POST /api/documents: a 200-file drop is 200 creations, plus one more per upload link storage refuses. */
  "documents-create": { points: 300, durationS: 600, key: "user" },
  /** POST /api/documents/[itemId]/events: each upload reports 2–5 times (created, started, uploaded, a retry, a failure). */
  "document-events": { points: 2000, durationS: 600, key: "user" },
  /** /documents and GET /api/documents: the list, its search and filters (typing is debounced), paging, its refreshes. */
  "documents-list": { points: 600, durationS: 600, key: "user" },
  /** DELETE /api/documents/[itemId]: "Remove from this list". */
  "documents-remove": { points: 600, durationS: 600, key: "user" },
  /** GET /api/documents/export: a download of everything, the heaviest request the app serves. */
  "documents-export": { points: 20, durationS: 600, key: "user" },
  /** POST /api/documents/import: the one-time import of the old browser list, retried until accepted. */
  "documents-import": { points: 30, durationS: 600, key: "user" },
  /** /documents/[itemId]: one document's page. */
  "document-page": { points: 600, durationS: 600, key: "user" },
  /**
   * Every other page (the landing page, the sign-in problem page, a page that does not exist): each reads, for the
   * header, whether the user is an operator.
   */
  "other-pages": { points: 600, durationS: 600, key: "user" },
  /** /account and GET /api/account: the account record (getuserinfo at the service). */
  "account": { points: 300, durationS: 600, key: "user" },
  /** GET/DELETE /api/sessions and /api/sessions/[id]: where you are signed in, and ending sessions. */
  "sessions": { points: 300, durationS: 600, key: "user" },
  /**
   * /operator/**: the operator's pages (overview, stuck list, search, a user's and a document's page, the access
   * log), each a read across every user's records.
   */
  "operator-pages": { points: 600, durationS: 600, key: "user" },
  /** GET /api/operator/export and /api/operator/access-log/export: downloads across every user's records. */
  "operator-export": { points: 20, durationS: 600, key: "user" },
  /** POST /api/account/erasure: "Delete my records". Once is the whole job; a few more are retries after an outage. */
  "records-erase": { points: 10, durationS: 600, key: "user" },
  /** POST /api/operator/users/[userKey]/erasure: an operator erasing a user on request, one per call or letter. */
  "operator-erase": { points: 30, durationS: 600, key: "user" },
  /** Starting a sign-in (a redirect to the service): per client address, since nobody is signed in yet. */
  "sign-in": { points: 60, durationS: 600, key: "address" },
} as const satisfies Record<string, { points: number; durationS: number; key: "user" | "address" }>;

export type LimitName = keyof typeof RATE_LIMIT_DEFAULTS;

export const LIMIT_NAMES = Object.keys(RATE_LIMIT_DEFAULTS) as LimitName[];

/** One budget: `points` requests per `durationS` seconds (a fixed window that starts with the first request). */
export type Budget = { points: number; durationS: number };

/** RATE_LIMIT_DOCUMENTS_CREATE for "documents-create". */
export const limitEnvKey = (name: LimitName) => `RATE_LIMIT_${name.toUpperCase().replace(/-/g, "_")}`;
