import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type OpenDatabase } from "@/lib/db/client";
import { documentEventInputSchema, type DocumentEventInput, type ImportedDocument } from "@/lib/documents/document-record-input";
import { DOCUMENT_EVENTS_MAX, documentRecordsFor, type DocumentRecords, type ExportedDocument, type ExportedEvent } from "@/lib/documents/document-records";
import { databaseBackends } from "../support/database-backends";

// The same tests against both ways of running the database: PGlite in this process, and a real PostgreSQL (Debian's
// package, 15 on bookworm) started by this file. PGlite runs PostgreSQL 18, so this also keeps the SQL to what 15 accepts.
const POSTGRES_PORT = Number(process.env.TEST_POSTGRES_PORT ?? 4700);

const backends = databaseBackends(POSTGRES_PORT, "esign-db-test-");

const ctx = { requestId: "req-1", device: "Chrome 131 on macOS 15" };
const newUser = () => `user-${randomUUID().slice(0, 8)}`;
const newId = () => randomUUID();
const at = (offsetSeconds: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, offsetSeconds)).toISOString();

function createdEvent(offsetSeconds = 0, overrides: Partial<Extract<DocumentEventInput, { type: "created" }>> = {}): DocumentEventInput {
  return { id: newId(), type: "created", at: at(offsetSeconds), fileId: newId(), subdocid: 0, container: "documents", name: "Lease 2026", doctype: "contract", ...overrides };
}

/** Everything the export reads, in batches of 2: every batch boundary is crossed. */
async function exportAll(records: DocumentRecords, userKey: string): Promise<{ documents: ExportedDocument[]; events: ExportedEvent[] }> {
  const documents: ExportedDocument[] = [];
  const events: ExportedEvent[] = [];
  for await (const batch of records.exportDocumentBatches(userKey, 2)) documents.push(...batch);
  for await (const batch of records.exportEventBatches(userKey, 2)) events.push(...batch);
  return { documents, events };
}

describe.each(backends)("document records on %s", (_name, open) => {
  let database: OpenDatabase;
  let records: DocumentRecords;

  beforeAll(async () => {
    database = await open();
    records = documentRecordsFor(async () => database);
  });

  afterAll(async () => {
    await database?.close();
  });

  const rowsOf = <T,>(query: SQL): Promise<T[]> => queryRows<T>(database.db, query);

  it("records a creation once, whether the create route or the browser reports it, and re-reports change nothing", async () => {
    const user = newUser();
    const itemId = newId();
    const fileId = newId();
    await records.recordCreated(user, { itemId, fileId, subdocid: 1, container: "c1", name: "Offer", doctype: "offer" }, ctx);
    // The browser re-sends its own "created" report (the route answered recorded: false after a slow write).
    const resent = await records.recordEvents(user, itemId, [createdEvent(0, { fileId, subdocid: 1, container: "c1", name: "Offer", doctype: "offer" })], ctx);
    expect(resent).toBe(0);
    const found = await records.getDocument(user, itemId);
    expect(found?.document).toMatchObject({ itemId, fileId, subdocid: 1, container: "c1", name: "Offer", doctype: "offer", status: "created", size: null, md5: null });
    expect(found?.events.map((e) => e.type)).toEqual(["created"]);
    expect(found?.events[0]).toMatchObject({ requestId: "req-1", device: "Chrome 131 on macOS 15" });
  });

  it("applies a report once however often it is sent, and derives the status from the events in the order they happened", async () => {
    const user = newUser();
    const itemId = newId();
    const created = createdEvent(0);
    const started: DocumentEventInput = { id: newId(), type: "upload_started", at: at(1), mode: "single", bytes: 2048 };
    expect(await records.recordEvents(user, itemId, [created, started], ctx)).toBe(2);
    expect((await records.getDocument(user, itemId))?.document).toMatchObject({ status: "uploading", size: 2048 });
    // The same report again (the browser never saw the 200): nothing doubles.
    expect(await records.recordEvents(user, itemId, [created, started], ctx)).toBe(0);
    expect((await records.getDocument(user, itemId))?.events).toHaveLength(2);

    const failed: DocumentEventInput = { id: newId(), type: "failed", at: at(2), errorCode: "UPLOAD_STALLED", mode: "single" };
    await records.recordEvents(user, itemId, [failed], ctx);
    expect((await records.getDocument(user, itemId))?.document.status).toBe("failed");

    const resumed: DocumentEventInput = { id: newId(), type: "resumed", at: at(3), mode: "single" };
    await records.recordEvents(user, itemId, [resumed], ctx);
    expect((await records.getDocument(user, itemId))?.document.status).toBe("uploading");

    // Through the route's schema, which lower-cases the MD5.
    const md5 = "9E107D9D372BB6826BD81D3542A419D6";
    const uploaded = documentEventInputSchema.parse({ id: newId(), type: "uploaded", at: at(5), mode: "single", bytes: 2048, md5, durationMs: 812 });
    await records.recordEvents(user, itemId, [uploaded], ctx);
    // A failure reported late, though it happened before the upload finished, does not undo the stored file.
    await records.recordEvents(user, itemId, [{ id: newId(), type: "failed", at: at(4), errorCode: "UPLOAD_UNREACHABLE" }], ctx);
    const found = await records.getDocument(user, itemId);
    expect(found?.document).toMatchObject({ status: "uploaded", size: 2048, md5: md5.toLowerCase() });
    expect(found?.events.map((e) => e.type)).toEqual(["created", "upload_started", "failed", "resumed", "failed", "uploaded"]);
    expect(found?.events.at(-1)?.details).toEqual({ mode: "single", bytes: 2048, md5: md5.toLowerCase(), durationMs: 812 });
  });

  it("keeps every event of reports sent at the same time, while other requests read", async () => {
    const user = newUser();
    const itemId = newId();
    await records.recordEvents(user, itemId, [createdEvent(0)], ctx);
    const reports = Array.from({ length: 12 }, (_, i): DocumentEventInput[] => [
      { id: newId(), type: "resumed", at: at(10 + i), mode: "blocks", bytes: i },
      { id: newId(), type: "failed", at: at(10 + i), errorCode: "UPLOAD_STALLED" },
    ]);
    const [recorded, reads] = await Promise.all([
      Promise.all(reports.map((events) => records.recordEvents(user, itemId, events, ctx))),
      Promise.all(reports.map(() => records.listDocuments(user, { limit: 5 }))),
    ]);
    expect(recorded).toEqual(reports.map(() => 2));
    expect(reads.every((page) => page.documents.length === 1)).toBe(true);
    expect((await records.getDocument(user, itemId))?.events).toHaveLength(1 + 2 * reports.length);
  });

  it("marks a document replaced when its refused link made the app create another, and keeps it replaced", async () => {
    const user = newUser();
    const first = newId();
    const second = newId();
    await records.recordEvents(user, first, [createdEvent(0), { id: newId(), type: "upload_started", at: at(1), mode: "blocks" }], ctx);
    await records.recordEvents(user, first, [{ id: newId(), type: "replaced", at: at(2), replacedByItemId: second }], ctx);
    await records.recordEvents(user, first, [{ id: newId(), type: "uploaded", at: at(3), bytes: 10 }], ctx);
    expect((await records.getDocument(user, first))?.document).toMatchObject({ status: "replaced", replacedByItemId: second });
    await records.recordEvents(user, second, [createdEvent(2), { id: newId(), type: "abandoned", at: at(4) }], ctx);
    expect((await records.getDocument(user, second))?.document.status).toBe("abandoned");
  });

  it("refuses events for a document the user has no record of, and never shows one user's document to another", async () => {
    const alice = newUser();
    const bob = newUser();
    const itemId = newId();
    expect(await records.recordEvents(alice, itemId, [{ id: newId(), type: "upload_started", at: at(0), mode: "single" }], ctx)).toBeNull();
    expect(await records.getDocument(alice, itemId)).toBeNull();
    await records.recordEvents(alice, itemId, [createdEvent(0)], ctx);
    expect(await records.getDocument(alice, itemId)).not.toBeNull();
    expect(await records.getDocument(bob, itemId)).toBeNull();
    expect(await records.recordEvents(bob, itemId, [{ id: newId(), type: "uploaded", at: at(1), bytes: 1 }], ctx)).toBeNull();
    expect(await records.removeDocument(bob, itemId, ctx)).toBe(false);
    expect((await records.listDocuments(bob, { limit: 50 })).documents).toEqual([]);
    expect((await exportAll(records, bob)).documents).toEqual([]);
    expect((await records.getDocument(alice, itemId))?.document.status).toBe("created");
  });

  it("pages the list newest first by an opaque cursor, without gaps or repeats, ties broken by id", async () => {
    const user = newUser();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const itemId = newId();
      ids.push(itemId);
      // Pairs share a creation time: the item id orders them.
      await records.recordEvents(user, itemId, [createdEvent(Math.floor(i / 2))], ctx);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    const pageSizes: number[] = [];
    do {
      const page = await records.listDocuments(user, { limit: 10, ...(cursor ? { cursor } : {}) });
      pageSizes.push(page.documents.length);
      seen.push(...page.documents.map((d) => d.itemId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pageSizes).toEqual([10, 10, 3]);
    const expected = ids
      .map((id, i) => ({ id, t: Math.floor(i / 2) }))
      .sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1))
      .map((x) => x.id);
    expect(seen).toEqual(expected);
    await expect(records.listDocuments(user, { limit: 10, cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
  });

  it("searches names case-insensitively (wildcards taken literally) and filters by type and status", async () => {
    const user = newUser();
    const docs = [
      { name: "Lease Agreement 2026", doctype: "contract" },
      { name: "lease renewal", doctype: "contract" },
      { name: "Invoice 100%_paid", doctype: "invoice" },
      { name: "Invoice 1000 paid", doctype: "invoice" },
    ];
    const ids: string[] = [];
    for (const [i, doc] of docs.entries()) {
      const itemId = newId();
      ids.push(itemId);
      await records.recordEvents(user, itemId, [createdEvent(i, doc)], ctx);
    }
    await records.recordEvents(user, ids[1]!, [{ id: newId(), type: "uploaded", at: at(9), bytes: 5 }], ctx);
    const names = async (query: Parameters<DocumentRecords["listDocuments"]>[1]) => (await records.listDocuments(user, query)).documents.map((d) => d.name);
    expect(await names({ limit: 50, q: "LEASE" })).toEqual(["lease renewal", "Lease Agreement 2026"]);
    expect(await names({ limit: 50, q: "100%_" })).toEqual(["Invoice 100%_paid"]);
    expect(await names({ limit: 50, doctype: "invoice" })).toEqual(["Invoice 1000 paid", "Invoice 100%_paid"]);
    expect(await names({ limit: 50, status: "uploaded" })).toEqual(["lease renewal"]);
    expect(await names({ limit: 50, q: "lease", status: "created" })).toEqual(["Lease Agreement 2026"]);
  });

  it("removes a document from the list but keeps it, with a 'removed' event, for the export", async () => {
    const user = newUser();
    const kept = newId();
    const removed = newId();
    await records.recordEvents(user, kept, [createdEvent(0)], ctx);
    await records.recordEvents(user, removed, [createdEvent(1, { name: "Old draft" })], ctx);
    expect(await records.removeDocument(user, removed, ctx)).toBe(true);
    expect(await records.removeDocument(user, removed, ctx)).toBe(false);
    expect((await records.listDocuments(user, { limit: 50 })).documents.map((d) => d.itemId)).toEqual([kept]);
    expect(await records.getDocument(user, removed)).toBeNull();
    const exported = await exportAll(records, user);
    expect(exported.documents.map((d) => [d.itemId, d.removedAt !== null])).toEqual([
      [removed, true],
      [kept, false],
    ]);
    expect(exported.events.filter((e) => e.itemId === removed).map((e) => e.type)).toEqual(["created", "removed"]);
  });

  it("exports every record exactly once across keyset batches, with equal and sub-millisecond creation times", async () => {
    const user = newUser();
    const ids = Array.from({ length: 7 }, () => newId());
    // Five created in the same millisecond (ties on created_at), and two a few microseconds apart, which a JS Date rounds.
    for (const itemId of ids) await records.recordEvents(user, itemId, [createdEvent(0), { id: newId(), type: "upload_started", at: at(1), mode: "single" }], ctx);
    await database.db.execute(sql`update documents set created_at = created_at + interval '3 microseconds' where user_key = ${user} and item_id = ${ids[0]!}`);
    await database.db.execute(sql`update documents set created_at = created_at + interval '1 microsecond' where user_key = ${user} and item_id = ${ids[1]!}`);
    const exported = await exportAll(records, user);
    const tied = ids.slice(2).sort().reverse();
    expect(exported.documents.map((d) => d.itemId)).toEqual([ids[0], ids[1], ...tied]);
    expect(exported.events.map((e) => [e.itemId, e.type])).toEqual([...ids].sort().flatMap((id) => [[id, "created"], [id, "upload_started"]]));
    // The CSV's per-batch read of trails: only the named documents', by document then time; null past its limit.
    const some = await records.exportEventsOf(user, [ids[3]!, ids[5]!], 4);
    expect(some?.map((e) => [e.itemId, e.type])).toEqual([ids[3]!, ids[5]!].sort().flatMap((id) => [[id, "created"], [id, "upload_started"]]));
    expect(await records.exportEventsOf(user, [ids[3]!, ids[5]!], 3)).toBeNull();
  });

  it("reads one document's trail in keyset batches, oldest first, with events a microsecond apart and equal times", async () => {
    const user = newUser();
    const itemId = newId();
    await records.recordEvents(user, itemId, [createdEvent(0), ...Array.from({ length: 6 }, () => ({ id: newId(), type: "resumed" as const, at: at(5), mode: "blocks" as const, bytes: 9 }))], ctx);
    // Two events a microsecond later than the rest, which a JS Date cannot tell apart.
    const [late1, late2] = await rowsOf<{ id: number }>(sql`select id from document_events where user_key = ${user} and type = 'resumed' order by id limit 2`);
    await database.db.execute(sql`update document_events set at = at + interval '1 microsecond' where id in (${late1!.id}, ${late2!.id})`);
    const read: string[] = [];
    for await (const batch of records.exportTrailBatches(user, itemId, 2)) read.push(...batch.map((e) => e.eventId));
    const expected = (await rowsOf<{ event_id: string }>(sql`select event_id from document_events where user_key = ${user} and item_id = ${itemId} order by at, id`)).map((r) => r.event_id);
    expect(read).toHaveLength(7);
    expect(read).toEqual(expected);
    expect(read.slice(-2).sort()).toEqual(expected.slice(-2).sort());
  });

  it("pages the list without skipping or repeating rows whose creation times differ only in microseconds", async () => {
    const user = newUser();
    const ids = Array.from({ length: 25 }, () => newId());
    for (const itemId of ids) await records.recordEvents(user, itemId, [createdEvent(0)], ctx);
    // A restore or manual SQL: 25 documents within one millisecond, i microseconds apart (a JS Date rounds them all to one).
    for (const [i, itemId] of ids.entries()) {
      await database.db.execute(sql`update documents set created_at = timestamptz '2026-11-26 12:00:00.000100+00' + ${i} * interval '1 microsecond' where user_key = ${user} and item_id = ${itemId}`);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await records.listDocuments(user, { limit: 4, ...(cursor ? { cursor } : {}) });
      seen.push(...page.documents.map((d) => d.itemId));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 20);
    expect(seen).toEqual([...ids].reverse());
    // An older cursor (milliseconds, as toISOString writes them) still works; a February 31 is a 400, not a 500.
    const legacy = Buffer.from(JSON.stringify(["2026-11-26T12:00:00.001Z", ids[0]])).toString("base64url");
    expect((await records.listDocuments(user, { limit: 50, cursor: legacy })).documents).toHaveLength(25);
    const impossible = Buffer.from(JSON.stringify(["2026-02-31T12:00:00.000001Z", ids[0]])).toString("base64url");
    await expect(records.listDocuments(user, { limit: 10, cursor: impossible })).rejects.toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
  });

  it(`keeps at most ${DOCUMENT_EVENTS_MAX} events per document and refuses a report past that with a 409 naming the limit`, async () => {
    const user = newUser();
    const itemId = newId();
    const resumed = (n: number) => Array.from({ length: n }, (_, i) => ({ id: newId(), type: "resumed" as const, at: at(1 + (i % 50)), mode: "blocks" as const, bytes: 9 }));
    await records.recordEvents(user, itemId, [createdEvent(0)], ctx);
    // The cap less the "created" event, 50 a report as the browser sends them.
    for (let left = DOCUMENT_EVENTS_MAX - 1; left > 0; left -= 50) await records.recordEvents(user, itemId, resumed(Math.min(50, left)), ctx);
    const full = resumed(1);
    await expect(records.recordEvents(user, itemId, full, ctx)).rejects.toMatchObject({
      code: "EVENT_LIMIT_REACHED",
      status: 409,
      fields: { events: [`a document keeps at most ${DOCUMENT_EVENTS_MAX} events`] },
    });
    const count = async () => Number((await rowsOf<{ n: string }>(sql`select count(*) as n from document_events where user_key = ${user} and item_id = ${itemId}`))[0]!.n);
    expect(await count()).toBe(DOCUMENT_EVENTS_MAX);
    // A report already on record is still answered (nothing new), and removing the document still works.
    const last = (await records.getDocument(user, itemId))!.events.at(-1)!;
    expect(await records.recordEvents(user, itemId, [{ id: last.eventId, type: "resumed", at: last.at, mode: "blocks", bytes: 9 }], ctx)).toBe(0);
    expect(await records.removeDocument(user, itemId, ctx)).toBe(true);
  });

  it("imports the browser's old list once, skipping documents already on record", async () => {
    const user = newUser();
    const alreadyRecorded = newId();
    await records.recordEvents(user, alreadyRecorded, [createdEvent(0)], ctx);
    const entry = (itemId: string, i: number): ImportedDocument => ({
      name: `Contract ${i}`,
      doctype: "contract",
      itemId,
      fileId: newId(),
      subdocid: 0,
      size: 1000 + i,
      md5Hex: i === 0 ? null : "d41d8cd98f00b204e9800998ecf8427e",
      uploadedAt: at(10 + i),
      ...(i === 2 ? { replacedItemId: newId() } : {}),
    });
    const entries = [entry(newId(), 0), entry(newId(), 1), entry(newId(), 2), entry(alreadyRecorded, 3)];
    expect(await records.importDocuments(user, entries, ctx)).toBe(3);
    expect(await records.importDocuments(user, entries, ctx)).toBe(0);
    const list = (await records.listDocuments(user, { limit: 50 })).documents;
    expect(list.map((d) => [d.name, d.status])).toEqual([
      ["Contract 2", "uploaded"],
      ["Contract 1", "uploaded"],
      ["Contract 0", "uploaded"],
      ["Lease 2026", "created"],
    ]);
    const third = await records.getDocument(user, entries[2]!.itemId);
    expect(third?.document).toMatchObject({ size: 1002, md5: "d41d8cd98f00b204e9800998ecf8427e", createdAt: at(12) });
    expect(third?.events.map((e) => [e.type, e.details])).toEqual([["imported", { replacedItemId: entries[2]!.replacedItemId }]]);
  });

  it("deletes records untouched since the retention cut-off, with their events", async () => {
    const user = newUser();
    const [old, touched, recent] = [newId(), newId(), newId()];
    const in2020 = (e: DocumentEventInput): DocumentEventInput => ({ ...e, at: e.at.replace("2026", "2020") });
    // Other tests' records are from 2026: a cut-off in 2021 can reach only this test's.
    await records.recordEvents(user, old, [in2020(createdEvent(0))], ctx);
    // Created as long ago, but a report written now touches it.
    await records.recordEvents(user, touched, [in2020(createdEvent(0)), in2020({ id: newId(), type: "uploaded", at: at(1), bytes: 1 })], ctx);
    await records.recordEvents(user, recent, [createdEvent(0)], ctx);
    expect(await records.deleteDocumentsUpdatedBefore(new Date("2021-01-01T00:00:00Z"))).toBe(1);
    expect(await records.getDocument(user, old)).toBeNull();
    const left = await exportAll(records, user);
    expect(left.documents.map((d) => d.itemId).sort()).toEqual([touched, recent].sort());
    expect(left.events.some((e) => e.itemId === old)).toBe(false);
  });
});
