import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "@/lib/db/client";
import { escapeLike } from "@/lib/db/like-pattern";
import { documentIdSchema } from "@/lib/documents/document-record-input";
import { DOCUMENT_SUMMARY_COLUMNS, toDocumentSummary, toUser, USER_COLUMNS, type DocumentSummaryRow, type UserRow } from "@/lib/operators/records/columns";
import type { OperatorSearchResult } from "@/lib/operators/types";

/**
 * A name search first filters this many of the newest documents: a query that matches often (a common word) finds
 * its page there at once. Only a rarer one goes to documents_name_grams_idx, whose matches are then few. Either
 * way a search reads a bounded number of rows, where the index alone would fetch and sort every match of a
 * common query (measured: 30–55 ms at 100,000 documents for a word in one name of six) and the newest-first
 * scan alone would read every document for a rare one.
 */
export const SEARCH_WINDOW = 2_000;

/** The condition a name search puts on `documents` (aliased `d`): the gram index narrows, ILIKE decides. */
function nameMatches(query: string): SQL {
  return sql`document_name_grams(d.name) @> document_name_query_grams(${query}) and d.name ilike ${`%${escapeLike(query)}%`}`;
}

/** Control characters (NUL would be refused by PostgreSQL) never belong to a name or an email; 200 characters are more than any name the app accepts. */
function cleanQuery(rawQuery: string): string {
  return rawQuery.replace(/\p{Cc}/gu, "").trim().slice(0, 200);
}

/** Documents whose item id is the query: stored as the service gave them (a GUID, in one case or the other). */
function documentsById(db: Database, query: string, limit: number): Promise<DocumentSummaryRow[]> {
  // Braces and the case as pasted are not part of it. Equality on the three spellings keeps to documents_item_id_idx.
  const bare = query.replace(/^\{|\}$/g, "");
  const spellings = [...new Set([bare, bare.toLowerCase(), bare.toUpperCase()])];
  return queryRows<DocumentSummaryRow>(
    db,
    sql`select ${DOCUMENT_SUMMARY_COLUMNS} from documents d left join users u on u.user_key = d.user_key
        where d.item_id in (${sql.join(spellings.map((s) => sql`${s}`), sql`, `)})
        order by d.created_at desc limit ${limit}`,
  );
}

/** Documents whose name holds the query, newest first: from the newest SEARCH_WINDOW, else through the gram index. */
async function documentsByName(db: Database, query: string, limit: number): Promise<DocumentSummaryRow[]> {
  // A subquery, not a CTE: its rows stream through the filter from documents_created_idx, none kept.
  const recent = await queryRows<DocumentSummaryRow>(
    db,
    sql`select ${DOCUMENT_SUMMARY_COLUMNS}
        from (select d0.user_key, d0.item_id, d0.name, d0.doctype, d0.status, d0.created_at, d0.updated_at, d0.removed_at
              from documents d0 order by d0.created_at desc, d0.user_key desc, d0.item_id desc limit ${SEARCH_WINDOW}) d
        left join users u on u.user_key = d.user_key
        where d.name ilike ${`%${escapeLike(query)}%`}
        order by d.created_at desc, d.user_key desc, d.item_id desc limit ${limit}`,
  );
  // A full page from the window is the answer; otherwise the index finds every match (when the window held every
  // document there is, it finds the same ones, at the cost of one more small query).
  if (recent.length === limit) return recent;
  return queryRows<DocumentSummaryRow>(
    db,
    sql`select ${DOCUMENT_SUMMARY_COLUMNS} from documents d left join users u on u.user_key = d.user_key
        where ${nameMatches(query)}
        order by d.created_at desc, d.user_key desc, d.item_id desc limit ${limit}`,
  );
}

/**
 * Users whose email or display name holds the query (case-insensitive), and documents whose name holds it (any
 * script, any length) or whose service item id it is; removed documents too, flagged. Newest first.
 */
export async function searchOperator(db: Database, rawQuery: string, options: { limit?: number } = {}): Promise<OperatorSearchResult> {
  const query = cleanQuery(rawQuery);
  const limit = Math.min(Math.max(1, options.limit ?? 20), 100);
  if (!query) return { query, users: [], documents: [] };
  const pattern = `%${escapeLike(query)}%`;
  const users = await queryRows<UserRow & { document_count: number }>(
    db,
    sql`select ${USER_COLUMNS}, (select count(*) from documents d where d.user_key = u.user_key)::int as document_count
        from users u where u.email ilike ${pattern} or u.display_name ilike ${pattern}
        order by u.last_seen_at desc, u.user_key limit ${limit}`,
  );
  const documents = documentIdSchema.safeParse(query).success ? await documentsById(db, query, limit) : await documentsByName(db, query, limit);
  return {
    query,
    users: users.map((row) => ({ ...toUser(row), documentCount: row.document_count })),
    documents: documents.map(toDocumentSummary),
  };
}
