/**
 * The app's database schema: one PostgreSQL dialect for both ways of running it (PGlite embedded, or PostgreSQL
 * through DATABASE_URL). `npm run db:generate` turns a change here into a new SQL migration in lib/db/migrations;
 * keep it to what PostgreSQL 15 accepts (PGlite runs 18). No `server-only` here: drizzle-kit loads this file.
 */
import { sql } from "drizzle-orm";
import { bigint, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { DOCUMENT_EVENT_TYPES } from "@/lib/documents/document-event-types";

export const DOCUMENT_STATUSES = ["created", "uploading", "uploaded", "failed", "abandoned", "replaced"] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

// The audit trail's event types are defined once, for the browser too: the schema's users take them from here.
export { DOCUMENT_EVENT_TYPES, type DocumentEventType } from "@/lib/documents/document-event-types";

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * One document a user created through the app, keyed by the user's key (lib/auth/user-key.ts: a hash of issuer
 * and subject) and the service's itemId. Never a SAS URL, `sas`, `uploadendpoint` or token: those are credentials.
 */
export const documents = pgTable(
  "documents",
  {
    userKey: text("user_key").notNull(),
    itemId: text("item_id").notNull(),
    fileId: text("file_id").notNull(),
    subdocid: integer("subdocid").notNull(),
    container: text("container"),
    name: text("name").notNull(),
    doctype: text("doctype").notNull(),
    /** Bytes; null until known. */
    size: bigint("size", { mode: "number" }),
    /** Lower-case hex; null when neither the browser nor storage computed one. */
    md5: text("md5"),
    status: text("status", { enum: DOCUMENT_STATUSES }).notNull(),
    replacedByItemId: text("replaced_by_item_id"),
    createdAt: timestamptz("created_at").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
    /** Set by "Remove from this list": the record is hidden from the user, its audit trail kept. */
    removedAt: timestamptz("removed_at"),
  },
  (t) => [
    primaryKey({ name: "documents_pkey", columns: [t.userKey, t.itemId] }),
    // The list: one user's visible documents, newest first, paged by (created_at, item_id).
    index("documents_list_idx")
      .on(t.userKey, t.createdAt.desc(), t.itemId.desc())
      .where(sql`${t.removedAt} is null`),
    // The export: all of one user's documents, removed ones included, newest first, read in keyset batches from
    // the index in order (documents_list_idx leaves removed rows out, so it cannot serve it).
    index("documents_export_idx").on(t.userKey, t.createdAt.desc(), t.itemId.desc()),
    // The retention sweep (DOCUMENT_RETENTION_DAYS) finds records untouched for that long across every user.
    index("documents_updated_idx").on(t.updatedAt),
    // Name search, the user's own and the operator's across users (migrations 0002, 0003): the name's lower-cased
    // characters and pairs of characters, each pair counted (99, 99#2, … for a pair held again: document_name_grams),
    // so a substring of any length and script, Japanese included, narrows to the names holding all its pairs at least
    // as often as it does before the LIKE recheck. Under any locale, no extension.
    // fastupdate off: with GIN's pending list on, every search also scanned up to 4 MB of unmerged entries (72 ms
    // measured at 100,000 names on PostgreSQL 15 where the merged index answered in a few ms).
    index("documents_name_grams_idx").using("gin", sql`document_name_grams(${t.name})`).with({ fastupdate: false }),
    // The operator's search by the service's item id, whoever's document it is.
    index("documents_item_id_idx").on(t.itemId),
    // The operator's overview and export: a period's documents across users, in creation order.
    index("documents_created_idx").on(t.createdAt, t.userKey, t.itemId),
    // The operator's stuck list: documents never uploaded or still uploading, oldest first.
    index("documents_open_idx")
      .on(t.createdAt)
      .where(sql`${t.removedAt} is null and ${t.status} in ('created', 'uploading')`),
    check("documents_status_check", sql`${t.status} in (${inList(DOCUMENT_STATUSES)})`),
  ],
);

/** The audit trail: what happened to a document, when, from which device and request. Append-only. */
export const documentEvents = pgTable(
  "document_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userKey: text("user_key").notNull(),
    itemId: text("item_id").notNull(),
    /** Chosen by whoever reports the event (the browser's outbox): a retried report is recognised and not doubled. */
    eventId: uuid("event_id").notNull(),
    type: text("type", { enum: DOCUMENT_EVENT_TYPES }).notNull(),
    /** When it happened, as the reporter says; `recordedAt` is when the server wrote it. */
    at: timestamptz("at").notNull(),
    recordedAt: timestamptz("recorded_at").notNull().defaultNow(),
    requestId: text("request_id"),
    /** "Chrome 131 on macOS 15", as the list of signed-in devices shows it. */
    device: text("device"),
    /** Facts of the event (mode, bytes, md5, durationMs, errorCode, replacedByItemId …), validated before they get here. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    foreignKey({ name: "document_events_document_fk", columns: [t.userKey, t.itemId], foreignColumns: [documents.userKey, documents.itemId] }).onDelete("cascade"),
    uniqueIndex("document_events_event_id_idx").on(t.userKey, t.itemId, t.eventId),
    // A document is created, imported and removed at most once, whoever reports it and however often.
    uniqueIndex("document_events_once_idx")
      .on(t.userKey, t.itemId, t.type)
      .where(sql`${t.type} in ('created', 'imported', 'removed')`),
    // A document's trail in time order, ties broken by id: the document page, the status fold and the export's
    // keyset batches ((item_id, at, id) > last row's) read it in order.
    index("document_events_trail_idx").on(t.userKey, t.itemId, t.at, t.id),
    // The operator's overview: who was active in a period, across users.
    index("document_events_at_idx").on(t.at),
    check("document_events_type_check", sql`${t.type} in (${inList(DOCUMENT_EVENT_TYPES)})`),
  ],
);

/**
 * The users who signed in, beside their key (lib/auth/user-key.ts), for the operator pages: the email only when the
 * service marked it verified, the display name, and when the app first and last saw them sign in. Never a token,
 * session id or subject. Written at sign-in (lib/operators/user-records.ts).
 */
export const users = pgTable(
  "users",
  {
    userKey: text("user_key").primaryKey(),
    email: text("email"),
    displayName: text("display_name"),
    firstSeenAt: timestamptz("first_seen_at").notNull(),
    lastSeenAt: timestamptz("last_seen_at").notNull(),
  },
  // The retention sweep removes users not seen for DOCUMENT_RETENTION_DAYS who have no records left.
  (t) => [index("users_last_seen_idx").on(t.lastSeenAt)],
);

export const OPERATOR_ACCESS_ACTIONS = ["view_overview", "view_stuck", "search", "view_user", "view_document", "export", "view_access_log", "export_access_log", "erase_user"] as const;
export type OperatorAccessAction = (typeof OPERATOR_ACCESS_ACTIONS)[number];

/**
 * What operators opened, and when (lib/operators/records/). Append-only: migration 0002 adds triggers that
 * refuse UPDATE, DELETE and TRUNCATE on it, whoever asks, and the app has no code path that would.
 */
export const operatorAccessLog = pgTable(
  "operator_access_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamptz("at").notNull().defaultNow(),
    operatorUserKey: text("operator_user_key").notNull(),
    /** The operator's verified email when they looked: kept as it was, even if it changes later. */
    operatorEmail: text("operator_email").notNull(),
    action: text("action", { enum: OPERATOR_ACCESS_ACTIONS }).notNull(),
    subjectUserKey: text("subject_user_key"),
    itemId: text("item_id"),
    /** What was asked: the search text, or an export's period and format. */
    detail: text("detail"),
  },
  (t) => [check("operator_access_log_action_check", sql`${t.action} in (${inList(OPERATOR_ACCESS_ACTIONS)})`)],
);

/**
 * Whose records were erased on request, and when (lib/erasure): the user's key and the time, nothing else. Kept after
 * the records are gone, so a restore of an older backup can erase them again (reapplyErasures) and a late report of
 * a document created before the erasure is refused (lib/erasure/erasure-guard.ts).
 */
export const erasureLedger = pgTable(
  "erasure_ledger",
  {
    userKey: text("user_key").notNull(),
    erasedAt: timestamptz("erased_at").notNull(),
  },
  (t) => [primaryKey({ name: "erasure_ledger_pkey", columns: [t.userKey, t.erasedAt] })],
);

export const schema = { documents, documentEvents, users, operatorAccessLog, erasureLedger };
