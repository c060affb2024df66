/**
 * The audit trail's event types, defined once: the database schema (its column and CHECK), the events route's
 * input schema, the browser's reports, the audit trail's catalog keys and the fuzz tests all derive from these
 * lists. No `server-only` and no imports: the browser and drizzle-kit (through lib/db/schema.ts) load it.
 */

/** What the browser reports about an upload (POST /api/documents/{itemId}/events). */
export const REPORTED_EVENT_TYPES = ["created", "upload_started", "uploaded", "failed", "resumed", "abandoned", "replaced"] as const;
export type ReportedEventType = (typeof REPORTED_EVENT_TYPES)[number];

/** What only the server records: a removal from the list (DELETE) and the one-time import of the browser's old list. */
export const SERVER_EVENT_TYPES = ["removed", "imported"] as const;

/** Every type of event a document's audit trail may hold. */
export const DOCUMENT_EVENT_TYPES = [...REPORTED_EVENT_TYPES, ...SERVER_EVENT_TYPES] as const;
export type DocumentEventType = (typeof DOCUMENT_EVENT_TYPES)[number];
