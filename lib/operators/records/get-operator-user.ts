import "server-only";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { DOCUMENT_SUMMARY_COLUMNS, toDocumentSummary, type DocumentSummaryRow } from "@/lib/operators/records/columns";
import { findOperatorUser } from "@/lib/operators/records/find-operator-user";
import type { OperatorUserPage } from "@/lib/operators/types";

/** An opaque cursor of the list: the last row's creation time (database text) and id. */
function encodeUserCursor(createdAt: string, itemId: string): string {
  return Buffer.from(JSON.stringify([createdAt, itemId])).toString("base64url");
}

function decodeUserCursor(cursor: string): { createdAt: string; itemId: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && !Number.isNaN(Date.parse(parsed[0])) && typeof parsed[1] === "string" && parsed[1].length <= 200) {
      return { createdAt: parsed[0], itemId: parsed[1] };
    }
  } catch {
    // Falls through to the 400.
  }
  throw new AppError("VALIDATION_FAILED", 400, "The page link is not valid. Start again from the first page.", { cursor: ["is not a valid cursor"] });
}

/** The user as kept, and their documents (removed ones too, flagged), newest first; null when the app knows neither. */
export async function getOperatorUser(db: Database, userKey: string, options: { cursor?: string; limit?: number } = {}): Promise<OperatorUserPage | null> {
  const limit = Math.min(Math.max(1, options.limit ?? 50), 200);
  const after = options.cursor ? decodeUserCursor(options.cursor) : undefined;
  const user = await findOperatorUser(db, userKey);
  const found = await queryRows<DocumentSummaryRow & { cursor_at: string }>(
    db,
    sql`select ${DOCUMENT_SUMMARY_COLUMNS}, d.created_at::text as cursor_at
        from documents d left join users u on u.user_key = d.user_key
        where d.user_key = ${userKey}
          ${after ? sql`and (d.created_at, d.item_id) < (${after.createdAt}::timestamptz, ${after.itemId})` : sql``}
        order by d.created_at desc, d.item_id desc limit ${limit + 1}`,
  );
  if (!user && found.length === 0 && !after) return null;
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    user,
    userKey,
    documents: page.map(toDocumentSummary),
    // The database's own text of the time (microseconds), which a JS Date would round.
    nextCursor: found.length > limit && last ? encodeUserCursor(last.cursor_at, last.item_id) : null,
  };
}
