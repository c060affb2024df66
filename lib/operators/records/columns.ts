import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DocumentStatus } from "@/lib/db/schema";
import type { OperatorDocumentSummary, OperatorUserRecord } from "@/lib/operators/types";

/**
 * The columns and row shapes the operator's reads share. Times come as ISO 8601 text in UTC from the database itself
 * (`iso`): the same text from PGlite and node-postgres, no Date parsing.
 */
export const iso = (column: SQL | SQL.Aliased | unknown) => sql<string>`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export type UserRow = { user_key: string; email: string | null; display_name: string | null; first_seen_at: string; last_seen_at: string };

/** `users` aliased `u`. */
export const USER_COLUMNS = sql`u.user_key, u.email, u.display_name, ${iso(sql`u.first_seen_at`)} as first_seen_at, ${iso(sql`u.last_seen_at`)} as last_seen_at`;

export function toUser(row: UserRow): OperatorUserRecord {
  return { userKey: row.user_key, email: row.email, displayName: row.display_name, firstSeenAt: row.first_seen_at, lastSeenAt: row.last_seen_at };
}

export type DocumentSummaryRow = {
  user_key: string;
  item_id: string;
  email: string | null;
  name: string;
  doctype: string;
  status: DocumentStatus;
  created_at: string;
  updated_at: string;
  removed_at: string | null;
};

/** `documents` aliased `d`, left-joined to `users` aliased `u`. */
export const DOCUMENT_SUMMARY_COLUMNS = sql`d.user_key, d.item_id, u.email, d.name, d.doctype, d.status, ${iso(sql`d.created_at`)} as created_at,
  ${iso(sql`d.updated_at`)} as updated_at, case when d.removed_at is null then null else ${iso(sql`d.removed_at`)} end as removed_at`;

export function toDocumentSummary(row: DocumentSummaryRow): OperatorDocumentSummary {
  return {
    userKey: row.user_key,
    itemId: row.item_id,
    email: row.email,
    name: row.name,
    doctype: row.doctype,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    removedAt: row.removed_at,
  };
}
