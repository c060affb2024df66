import "server-only";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "@/lib/db/client";
import type { DocumentEventType } from "@/lib/db/schema";
import { DOCUMENT_SUMMARY_COLUMNS, iso, toDocumentSummary, type DocumentSummaryRow } from "@/lib/operators/records/columns";
import { findOperatorUser } from "@/lib/operators/records/find-operator-user";
import type { OperatorDocumentPage } from "@/lib/operators/types";

type DocumentRow = DocumentSummaryRow & { file_id: string; subdocid: number; container: string | null; size: string | number | null; md5: string | null; replaced_by_item_id: string | null };
type EventRow = { event_id: string; type: DocumentEventType; at: string; recorded_at: string; request_id: string | null; device: string | null; details: Record<string, unknown> };

/** One document with its full audit trail (oldest first) and the technical facts kept with each event; null if none. */
export async function getOperatorDocument(db: Database, userKey: string, itemId: string): Promise<OperatorDocumentPage | null> {
  const [doc] = await queryRows<DocumentRow>(
    db,
    sql`select ${DOCUMENT_SUMMARY_COLUMNS}, d.file_id, d.subdocid, d.container, d.size, d.md5, d.replaced_by_item_id
        from documents d left join users u on u.user_key = d.user_key
        where d.user_key = ${userKey} and d.item_id = ${itemId}`,
  );
  if (!doc) return null;
  const events = await queryRows<EventRow>(
    db,
    sql`select e.event_id::text as event_id, e.type, ${iso(sql`e.at`)} as at, ${iso(sql`e.recorded_at`)} as recorded_at, e.request_id, e.device, e.details
        from document_events e where e.user_key = ${userKey} and e.item_id = ${itemId}
        order by e.at asc, e.id asc`,
  );
  return {
    user: await findOperatorUser(db, userKey),
    document: {
      ...toDocumentSummary(doc),
      fileId: doc.file_id,
      subdocid: doc.subdocid,
      container: doc.container,
      // bigint: node-postgres gives text.
      size: doc.size === null ? null : Number(doc.size),
      md5: doc.md5,
      replacedByItemId: doc.replaced_by_item_id,
    },
    events: events.map((e) => ({ eventId: e.event_id, type: e.type, at: e.at, recordedAt: e.recorded_at, requestId: e.request_id, device: e.device, details: e.details })),
  };
}
