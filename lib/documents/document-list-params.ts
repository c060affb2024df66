import { DOCUMENT_STATUSES, type DocumentStatus } from "@/lib/db/schema";

/** How many documents one page of the list shows. */
export const DOCUMENTS_PER_PAGE = 20;

/** The list's state as the URL carries it: filters, where the page starts, and the pages before it. */
export type DocumentListParams = {
  q: string;
  doctype: string;
  status: DocumentStatus | "";
  /** Where this page starts (the previous page's `nextCursor`); empty on the first page. */
  cursor: string;
  /** The cursors of the pages between the first and this one, so "Newer" can go back without a reverse query. */
  newer: string[];
  /** The URL carried a cursor that is not one: the first page is shown instead, and the list says so. */
  badCursor: boolean;
};

// Cursors are base64url (no dot); a long trail is cut from its oldest end, so the URL stays short.
const TRAIL_SEPARATOR = ".";
const MAX_TRAIL = 20;
const CURSOR_SHAPE = /^[A-Za-z0-9_-]{1,200}$/;

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

// Control characters can only come from a crafted URL; the database cannot search for NUL.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * Reads the list's URL parameters; anything malformed falls back to "no filter" or the first page (a malformed
 * cursor is flagged, so the page can say so).
 */
export function readDocumentListParams(search: Record<string, string | string[] | undefined>): DocumentListParams {
  const status = first(search.status);
  const cursor = first(search.cursor);
  return {
    q: first(search.q).replace(CONTROL_CHARACTERS, "").trim().slice(0, 200),
    doctype: first(search.doctype).replace(CONTROL_CHARACTERS, "").trim().slice(0, 100),
    status: (DOCUMENT_STATUSES as readonly string[]).includes(status) ? (status as DocumentStatus) : "",
    cursor: CURSOR_SHAPE.test(cursor) ? cursor : "",
    newer: first(search.newer)
      .split(TRAIL_SEPARATOR)
      .filter((c) => CURSOR_SHAPE.test(c))
      .slice(-MAX_TRAIL),
    badCursor: cursor !== "" && !CURSOR_SHAPE.test(cursor),
  };
}

/** Whether the list is narrowed by a search or a filter (the empty state then says so). */
export function isFiltered(params: DocumentListParams): boolean {
  return Boolean(params.q || params.doctype || params.status);
}

function hrefOf(params: DocumentListParams, cursor: string, newer: string[]): string {
  const query = new URLSearchParams();
  if (params.q) query.set("q", params.q);
  if (params.doctype) query.set("doctype", params.doctype);
  if (params.status) query.set("status", params.status);
  if (cursor) query.set("cursor", cursor);
  if (cursor && newer.length > 0) query.set("newer", newer.slice(-MAX_TRAIL).join(TRAIL_SEPARATOR));
  const text = query.toString();
  return text ? `/documents?${text}#documents-list` : "/documents#documents-list";
}

/** The next (older) page, with the same filters; the current page goes on the trail. */
export function olderHref(params: DocumentListParams, nextCursor: string): string {
  return hrefOf(params, nextCursor, params.cursor ? [...params.newer, params.cursor] : []);
}

/** The previous (newer) page, or null on the first page. */
export function newerHref(params: DocumentListParams): string | null {
  if (!params.cursor) return null;
  return hrefOf(params, params.newer.at(-1) ?? "", params.newer.slice(0, -1));
}
