import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type OpenDatabase } from "@/lib/db/client";
import type { DocumentEventInput } from "@/lib/documents/document-record-input";
import { documentRecordsFor, type DocumentRecords } from "@/lib/documents/document-records";
import { accessLogExportChunks, operatorExportChunks } from "@/lib/operators/operator-export";
import { operatorRecordsFor, type OperatorRecords } from "@/lib/operators/operator-records";
import { SEARCH_WINDOW } from "@/lib/operators/records/search-operator";
import { userRecordsFor, type UserRecords } from "@/lib/operators/user-records";
import { resolvePeriod } from "@/app/operator/_lib/period";
import { databaseBackends } from "../support/database-backends";
import { workerPort } from "../support/worker-port";

// The operator's reads, the user records and the access log against both ways of running the database: PGlite in
// this process and a real PostgreSQL 15 (Debian's, initdb'd with --locale=C.UTF-8) started by this file.
const POSTGRES_PORT = workerPort(4706);

const backends = databaseBackends(POSTGRES_PORT, "esign-operator-test-");

const ctx = { requestId: "req-op", device: "Firefox 133 on Windows 11" };
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Times of the seeded day: 2026-11-20 in UTC (09:00 in Tokyo is 00:00 UTC). */
const t = (iso: string) => new Date(`2026-11-20T${iso}Z`);

function created(at: Date, name: string): DocumentEventInput {
  return { id: randomUUID(), type: "created", at: at.toISOString(), fileId: randomUUID(), subdocid: 0, container: "documents", name, doctype: "contract" };
}
const started = (at: Date): DocumentEventInput => ({ id: randomUUID(), type: "upload_started", at: at.toISOString(), mode: "single", bytes: 1000 });
const uploaded = (at: Date): DocumentEventInput => ({ id: randomUUID(), type: "uploaded", at: at.toISOString(), mode: "single", bytes: 1000, md5: "9e107d9d372bb6826bd81d3542a419d6", durationMs: 500 });
const failed = (at: Date, errorCode: string): DocumentEventInput => ({ id: randomUUID(), type: "failed", at: at.toISOString(), errorCode, mode: "single" } as DocumentEventInput);
const abandoned = (at: Date): DocumentEventInput => ({ id: randomUUID(), type: "abandoned", at: at.toISOString() } as DocumentEventInput);

async function collect(chunks: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

describe.each(backends)("operator records on %s", (_name, open) => {
  let database: OpenDatabase;
  let documents: DocumentRecords;
  let operator: OperatorRecords;
  let users: UserRecords;
  // The seeded period's users: each test run gets its own keys, and the period lies in a year no other test writes.
  const alice = `alice-${randomUUID().slice(0, 8)}`;
  const bob = `bob-${randomUUID().slice(0, 8)}`;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await open();
    documents = documentRecordsFor(async () => database);
    operator = operatorRecordsFor(async () => database);
    users = userRecordsFor(async () => database);
    await users.recordUserSignIn(alice, { email: "Alice@Example.com", email_verified: true, name: "Alice Example" }, t("08:00:00"));
    await users.recordUserSignIn(bob, { email: "bob@example.com", email_verified: true, name: "山田 太郎" }, t("08:00:00"));
    // A seeded day, in UTC: six documents created between 01:00 and 20:00.
    const seed: Array<[string, string, DocumentEventInput[]]> = [
      // uploaded 10 minutes after creation
      ["up1", alice, [created(t("01:00:00"), "Lease 2026"), started(t("01:01:00")), uploaded(t("01:10:00"))]],
      // uploaded 30 minutes after creation (its first try failed)
      ["up2", bob, [created(t("02:00:00"), "賃貸借契約書"), started(t("02:01:00")), failed(t("02:05:00"), "UPLOAD_STALLED"), started(t("02:20:00")), uploaded(t("02:30:00"))]],
      ["fail1", alice, [created(t("03:00:00"), "Invoice 7"), started(t("03:01:00")), failed(t("03:02:00"), "UPLOAD_STALLED")]],
      ["fail2", bob, [created(t("16:00:00"), "見積書"), started(t("16:01:00")), failed(t("16:02:00"), "UPLOAD_FORBIDDEN")]],
      ["cancel", alice, [created(t("17:00:00"), "Offer"), started(t("17:01:00")), abandoned(t("17:02:00"))]],
      // never uploaded (still "created"), and one still uploading with its last event at 19:30
      ["never", bob, [created(t("18:00:00"), "契約書 第2版")]],
      ["silent", alice, [created(t("19:00:00"), "Policy"), started(t("19:30:00"))]],
    ];
    for (const [label, user, events] of seed) {
      ids[label] = randomUUID();
      await documents.recordEvents(user, ids[label]!, events, ctx);
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  it("keeps a user's verified email and name with first and last seen, and drops an email no longer verified", async () => {
    const key = `u-${randomUUID().slice(0, 8)}`;
    await users.recordUserSignIn(key, { email: "Carol@Example.com", email_verified: true, name: "Carol" }, new Date("2026-01-01T00:00:00Z"));
    await users.recordUserSignIn(key, { email: "carol@example.com", email_verified: true, name: "Carol C." }, new Date("2026-02-01T00:00:00Z"));
    let page = await operator.getOperatorUser(key);
    expect(page?.user).toEqual({ userKey: key, email: "carol@example.com", displayName: "Carol C.", firstSeenAt: "2026-01-01T00:00:00.000Z", lastSeenAt: "2026-02-01T00:00:00.000Z" });
    // An id_token that does not say the email is verified (or says it as text): no email kept.
    await users.recordUserSignIn(key, { email: "carol@example.com", email_verified: "true", name: "Carol C." }, new Date("2026-03-01T00:00:00Z"));
    page = await operator.getOperatorUser(key);
    expect(page?.user).toMatchObject({ email: null, firstSeenAt: "2026-01-01T00:00:00.000Z", lastSeenAt: "2026-03-01T00:00:00.000Z" });
    expect(await users.verifiedEmailOfUser(key)).toBeNull();
    // Nothing but these columns: no token, session id or subject.
    const columns = await queryRows<{ column_name: string }>(database.db, sql`select column_name from information_schema.columns where table_name = 'users' order by column_name`);
    expect(columns.map((r) => r.column_name)).toEqual(["display_name", "email", "first_seen_at", "last_seen_at", "user_key"]);
  });

  it("counts the period's documents, completion, times to upload, failures by code, active users and days in the zone", async () => {
    // 2026-11-20 00:00 to 24:00 in UTC.
    const overview = await operator.getOperatorOverview({ from: t("00:00:00"), to: new Date("2026-11-21T00:00:00Z"), timeZone: "UTC" });
    expect(overview).toMatchObject({ created: 7, uploaded: 2, failed: 2, cancelled: 1, replaced: 0, pending: 2, activeUsers: 2 });
    expect(overview.completionRate).toBeCloseTo(2 / 7, 10);
    // 10 and 30 minutes: the median interpolates to 20, p95 to 10 + 0.95 × 20 = 29 minutes.
    expect(overview.creationToUploadMs.median).toBeCloseTo(20 * MINUTE, 3);
    expect(overview.creationToUploadMs.p95).toBeCloseTo(29 * MINUTE, 3);
    expect(overview.failuresByCode).toEqual([
      { errorCode: "UPLOAD_FORBIDDEN", count: 1 },
      { errorCode: "UPLOAD_STALLED", count: 1 },
    ]);
    expect(overview.days).toEqual([{ day: "2026-11-20", created: 7, uploaded: 2, failed: 2 }]);

    // In Tokyo (UTC+9) the 20th runs from 2026-11-19 15:00 to 2026-11-20 15:00 UTC: the three created before 04:00
    // UTC fall on it, the four created from 16:00 UTC on the 21st.
    const tokyo = await operator.getOperatorOverview({ from: new Date("2026-11-19T15:00:00Z"), to: new Date("2026-11-21T15:00:00Z"), timeZone: "Asia/Tokyo" });
    expect(tokyo.days).toEqual([
      { day: "2026-11-20", created: 3, uploaded: 2, failed: 1 },
      { day: "2026-11-21", created: 4, uploaded: 0, failed: 1 },
    ]);
    // A period with nothing in it: zeros, no rate, no times.
    const empty = await operator.getOperatorOverview({ from: new Date("2026-11-10T00:00:00Z"), to: new Date("2026-11-12T00:00:00Z"), timeZone: "UTC" });
    expect(empty).toMatchObject({ created: 0, completionRate: null, creationToUploadMs: { median: null, p95: null }, failuresByCode: [], activeUsers: 0 });
    expect(empty.days.map((d) => d.day)).toEqual(["2026-11-10", "2026-11-11"]);
  });

  it("lists what is stuck as of an injected now: never uploaded past its threshold, uploads silent past theirs", async () => {
    const stuckOf = async (now: Date, thresholds: { neverUploadedAfterMs?: number; silentUploadAfterMs?: number } = {}) =>
      (await operator.listStuckDocuments({ now, ...thresholds })).documents.filter((row) => row.userKey === alice || row.userKey === bob);
    // 18:30: "never" is 30 min old (< 1 h); "silent" does not exist yet.
    expect(await stuckOf(t("18:30:00"))).toEqual([]);
    // 19:05: "never" is 65 min old → stuck; "silent" (created 19:00, nothing started) is not 1 h old.
    const at1905 = await stuckOf(t("19:05:00"));
    expect(at1905.map((r) => [r.itemId, r.kind])).toEqual([[ids.never, "never_uploaded"]]);
    expect(at1905[0]).toMatchObject({ email: "bob@example.com", name: "契約書 第2版", status: "created", lastEvent: { type: "created", device: ctx.device, errorCode: null }, ageMs: 65 * MINUTE });
    // 20:01: "silent" has had no event for 31 min (> 30 min default); oldest last event first.
    const at2001 = await stuckOf(t("20:01:00"));
    expect(at2001.map((r) => [r.itemId, r.kind])).toEqual([
      [ids.never, "never_uploaded"],
      [ids.silent, "upload_silent"],
    ]);
    expect(at2001[1]).toMatchObject({ email: "alice@example.com", displayName: "Alice Example", lastEvent: { type: "upload_started", at: "2026-11-20T19:30:00.000Z" }, ageMs: 31 * MINUTE });
    // Thresholds are the caller's: a 2-hour silence threshold leaves "silent" out at 20:01.
    expect((await stuckOf(t("20:01:00"), { silentUploadAfterMs: 2 * HOUR })).map((r) => r.itemId)).toEqual([ids.never]);
  });

  it("pages the stuck list after where the last page ended, counting all of it, and skips nothing when a row moves on", async () => {
    // Five never uploaded on a day no other test writes, two of them created at the same moment.
    const day = (time: string) => new Date(`2024-06-01T${time}Z`);
    const owner = `stuck-${randomUUID().slice(0, 8)}`;
    const seeded: string[] = [];
    for (const at of ["01:00:00", "02:00:00", "02:00:00", "03:00:00.123", "04:00:00"]) {
      const itemId = randomUUID();
      seeded.push(itemId);
      await documents.recordEvents(owner, itemId, [created(day(at), `Stuck ${at}`)], ctx);
    }
    const now = day("12:00:00");
    const first = await operator.listStuckDocuments({ now, limit: 2 });
    expect(first).toMatchObject({ total: 5, skipped: 0 });
    expect(first.documents.map((row) => row.ageMs)).toEqual([11 * HOUR, 10 * HOUR]);
    const second = await operator.listStuckDocuments({ now, limit: 2, after: first.next! });
    expect(second).toMatchObject({ total: 5, skipped: 2 });
    const third = await operator.listStuckDocuments({ now, limit: 2, after: second.next! });
    expect(third).toMatchObject({ total: 5, skipped: 4, next: null });
    // Oldest first, the two of 02:00 in the order they were recorded, each once.
    expect([...first.documents, ...second.documents, ...third.documents].map((row) => row.itemId)).toEqual(seeded);

    // A page that ended at the second 02:00, whose document is then uploaded: the next page starts after it all the same.
    const endingThere = await operator.listStuckDocuments({ now, limit: 3 });
    await documents.recordEvents(owner, seeded[2]!, [started(day("05:00:00")), uploaded(day("05:01:00"))], ctx);
    const after = await operator.listStuckDocuments({ now, limit: 2, after: endingThere.next! });
    expect(after).toMatchObject({ total: 4, skipped: 2, next: null });
    expect(after.documents.map((row) => row.itemId)).toEqual([seeded[3], seeded[4]]);
    // A cursor past the last row (its documents moved on meanwhile): an empty page that still counts them all.
    const beyond = await operator.listStuckDocuments({ now, limit: 2, after: { atMicros: day("23:00:00").getTime() * 1000, eventId: 0 } });
    expect(beyond).toEqual({ documents: [], total: 4, skipped: 4, next: null });
    // The milliseconds of 03:00:00.123 survive the cursor: a cursor at that row leaves only 04:00.
    const atThree = await operator.listStuckDocuments({ now, limit: 1, after: { atMicros: day("03:00:00.123").getTime() * 1000, eventId: Number.MAX_SAFE_INTEGER } });
    expect(atThree.documents.map((row) => row.itemId)).toEqual([seeded[4]]);
  });

  it("finds users by email or name and documents by a name substring in any script, at any length, or by item id", async () => {
    const search = (q: string) => operator.searchOperator(q, { limit: 50 });
    expect((await search("ALICE@example")).users.map((u) => u.userKey)).toEqual([alice]);
    expect((await search("山田")).users.map((u) => [u.userKey, u.documentCount])).toEqual([[bob, 3]]);
    const mine = (result: Awaited<ReturnType<typeof search>>) => result.documents.filter((d) => d.userKey === alice || d.userKey === bob).map((d) => d.itemId);
    // Japanese substrings of three, two and one character(s).
    expect(mine(await search("契約書"))).toEqual([ids.never, ids.up2]);
    expect(mine(await search("契約"))).toEqual([ids.never, ids.up2]);
    expect(mine(await search("賃"))).toEqual([ids.up2]);
    // Case-insensitive, two characters; a LIKE wildcard is a literal character.
    expect(mine(await search("ea"))).toEqual([ids.up1]);
    expect(mine(await search("%"))).toEqual([]);
    // Control characters are dropped, not sent to the database (PostgreSQL refuses NUL in text).
    expect(mine(await search("見積\u0000"))).toEqual([ids.fail2]);
    // The service's item id, in capitals and braces as it may be pasted.
    const byId = await search(`{${ids.fail2!.toUpperCase()}}`);
    expect(byId.documents.map((d) => [d.itemId, d.email, d.name])).toEqual([[ids.fail2, "bob@example.com", "見積書"]]);
  });

  it("finds a rare name beyond the newest documents through the gram index, and a common one among them", async () => {
    const user = `bulk-${randomUUID().slice(0, 8)}`;
    const rare = randomUUID();
    await documents.recordEvents(user, rare, [created(new Date("2026-12-01T00:00:00Z"), "稟議書 特別")], ctx);
    // More than the search window of newer documents, none of them matching.
    await database.db.execute(sql`
      insert into documents (user_key, item_id, file_id, subdocid, name, doctype, status, created_at, updated_at)
      select ${user}, md5(${user} || g)::uuid::text, md5('f' || g)::uuid::text, 0, 'Filler ' || g, 'contract', 'created',
             timestamptz '2026-12-02' + g * interval '1 second', timestamptz '2026-12-02'
      from generate_series(1, ${SEARCH_WINDOW + 100}) g`);
    const found = await operator.searchOperator("稟議", { limit: 5 });
    expect(found.documents.map((d) => d.itemId)).toEqual([rare]);
    // The user's own list search takes the same two steps.
    expect((await documents.listDocuments(user, { q: "稟議", limit: 5 })).documents.map((d) => d.itemId)).toEqual([rare]);
    // A common word: the newest five, in order.
    const common = await operator.searchOperator("Filler", { limit: 5 });
    expect(common.documents.map((d) => d.name)).toEqual([2100, 2099, 2098, 2097, 2096].map((g) => `Filler ${g}`));
    const own = await documents.listDocuments(user, { q: "filler 20", limit: 3 });
    expect(own.documents.map((d) => d.name)).toEqual(["Filler 2099", "Filler 2098", "Filler 2097"]);
    expect(own.nextCursor).not.toBeNull();
  });

  it("finds a query that repeats a pair only in names holding that pair as often, through the counted pairs of the gram index", async () => {
    // 99999 holds the pair 99 four times (overlapping); the index counts each name's pairs the same way (99, 99#2, …).
    const grams = async (text: string, fn: "document_name_grams" | "document_name_query_grams") =>
      (await queryRows<{ g: string[] }>(database.db, sql`select ${sql.raw(fn)}(${text}) as g`))[0]!.g.slice().sort();
    expect(await grams("99999", "document_name_query_grams")).toEqual(["99", "99#2", "99#3", "99#4"]);
    expect(await grams("Ref 9999", "document_name_grams")).toEqual([" ", " 9", "9", "99", "99#2", "99#3", "e", "ef", "f", "f ", "r", "re"]);
    const user = `repeat-${randomUUID().slice(0, 8)}`;
    const names = ["Ref 99999", "Ref 9999", "Ref 99 99 99 99", "ああああ", "ああ"];
    const idOf = new Map<string, string>();
    for (const [i, name] of names.entries()) {
      const itemId = randomUUID();
      idOf.set(itemId, name);
      await documents.recordEvents(user, itemId, [created(new Date(Date.UTC(2026, 11, 1, 0, i)), name)], ctx);
    }
    // Newer than all of them: more than the search window, none matching, so each search goes to the index.
    await database.db.execute(sql`
      insert into documents (user_key, item_id, file_id, subdocid, name, doctype, status, created_at, updated_at)
      select ${user}, md5(${user} || g)::uuid::text, md5('f' || g)::uuid::text, 0, 'Filler ' || g, 'contract', 'created',
             timestamptz '2026-12-02' + g * interval '1 second', timestamptz '2026-12-02'
      from generate_series(1, ${SEARCH_WINDOW + 100}) g`);
    const found = async (q: string) => (await operator.searchOperator(q, { limit: 50 })).documents.filter((d) => d.userKey === user).map((d) => idOf.get(d.itemId));
    expect(await found("99999")).toEqual(["Ref 99999"]);
    expect(await found("9999")).toEqual(["Ref 9999", "Ref 99999"]);
    expect(await found("99 99")).toEqual(["Ref 99 99 99 99"]);
    expect(await found("あああ")).toEqual(["ああああ"]);
    expect(await found("ああ")).toEqual(["ああ", "ああああ"]);
    // The user's own list search reads the same index.
    expect((await documents.listDocuments(user, { q: "99999", limit: 5 })).documents.map((d) => d.name)).toEqual(["Ref 99999"]);
  });

  it("shows a user's documents and a document's full trail, with device and request ids", async () => {
    const page = await operator.getOperatorUser(bob);
    expect(page?.user?.email).toBe("bob@example.com");
    expect(page?.documents.map((d) => [d.itemId, d.status])).toEqual([
      [ids.never, "created"],
      [ids.fail2, "failed"],
      [ids.up2, "uploaded"],
    ]);
    const doc = await operator.getOperatorDocument(bob, ids.up2!);
    expect(doc?.document).toMatchObject({ itemId: ids.up2, name: "賃貸借契約書", status: "uploaded", size: 1000, md5: "9e107d9d372bb6826bd81d3542a419d6", removedAt: null });
    expect(doc?.events.map((e) => e.type)).toEqual(["created", "upload_started", "failed", "upload_started", "uploaded"]);
    expect(doc?.events[2]).toMatchObject({ requestId: "req-op", device: ctx.device, details: { errorCode: "UPLOAD_STALLED", mode: "single" } });
    // Another user's key with this item id: nothing.
    expect(await operator.getOperatorDocument(alice, ids.up2!)).toBeNull();
    expect(await operator.getOperatorUser(`nobody-${randomUUID()}`)).toBeNull();
  });

  it("appends to the access log and refuses any change to it, even from the app's own connection", async () => {
    const op = { userKey: alice, email: "alice@example.com" };
    await operator.recordOperatorAccess(op, { action: "view_user", subjectUserKey: bob });
    await operator.recordOperatorAccess(op, { action: "view_document", subjectUserKey: bob, itemId: ids.up2 });
    const { entries } = await operator.listOperatorAccess({ limit: 2 });
    expect(entries.map((e) => [e.action, e.subjectUserKey, e.subjectEmail, e.itemId, e.operatorEmail])).toEqual([
      ["view_document", bob, "bob@example.com", ids.up2, "alice@example.com"],
      ["view_user", bob, "bob@example.com", null, "alice@example.com"],
    ]);
    const refusal = async (statement: ReturnType<typeof sql>) => {
      try {
        await database.db.execute(statement);
        return "accepted";
      } catch (error) {
        let current: unknown = error;
        while (current && !(current as { code?: string }).code) current = (current as { cause?: unknown }).cause;
        return (current as { code?: string } | undefined)?.code;
      }
    };
    expect(await refusal(sql`update operator_access_log set operator_email = 'someone@example.com'`)).toBe("42501");
    expect(await refusal(sql`delete from operator_access_log`)).toBe("42501");
    expect(await refusal(sql`truncate operator_access_log`)).toBe("42501");
    expect((await operator.listOperatorAccess({ limit: 2 })).entries).toEqual(entries);
  });

  it("exports a period across users in bounded batches, complete, as CSV with BOM and as JSON", async () => {
    const period = { from: t("00:00:00"), to: new Date("2026-11-21T00:00:00Z") };
    const batches: number[] = [];
    const seen: string[] = [];
    for await (const batch of operator.exportPeriodBatches(period, 2)) {
      batches.push(batch.length);
      seen.push(...batch.map((d) => d.itemId));
    }
    // Seven documents in batches of at most two, oldest first, each once.
    expect(batches).toEqual([2, 2, 2, 1]);
    expect(seen).toEqual([ids.up1, ids.up2, ids.fail1, ids.fail2, ids.cancel, ids.never, ids.silent]);

    const csv = (await collect(operatorExportChunks(period, "csv", { records: operator, batchSize: 2 }))).join("");
    expect(csv.startsWith("\uFEFFcreated_at,user_key,email,item_id,name,")).toBe(true);
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(8);
    expect(lines[4]).toBe(`2026-11-20T16:00:00.000Z,${bob},bob@example.com,${ids.fail2},見積書,contract,failed,1000,,UPLOAD_FORBIDDEN,${lines[4]!.split(",")[10]},`);

    const json = JSON.parse((await collect(operatorExportChunks(period, "json", { records: operator, batchSize: 3, now: new Date("2026-11-27T00:00:00Z") }))).join(""));
    expect(json).toMatchObject({ exportedAt: "2026-11-27T00:00:00.000Z", from: "2026-11-20T00:00:00.000Z", to: "2026-11-21T00:00:00.000Z" });
    expect(json.documents.map((d: { itemId: string }) => d.itemId)).toEqual(seen);
    expect(json.documents[1]).toMatchObject({ userKey: bob, email: "bob@example.com", name: "賃貸借契約書", status: "uploaded", size: 1000, lastErrorCode: "UPLOAD_STALLED" });

    const log = JSON.parse((await collect(accessLogExportChunks("json", { records: operator, batchSize: 1 }))).join(""));
    expect(log.entries.length).toBeGreaterThanOrEqual(2);
    expect(log.entries.map((e: { id: number }) => e.id)).toEqual([...log.entries.map((e: { id: number }) => e.id)].sort((a: number, b: number) => a - b));
    const logCsv = (await collect(accessLogExportChunks("csv", { records: operator }))).join("");
    expect(logCsv.startsWith("\uFEFFid,at,operator_email,")).toBe(true);
    expect(logCsv.trimEnd().split("\r\n")).toHaveLength(log.entries.length + 1);
  });

  it("shows a one-day period as that one day where daylight saving skips midnight, totals equal to its days, and exports only its documents", async () => {
    // Santiago skips 2026-09-06 00:00 (UTC−4 to UTC−3), Havana 2026-03-08 00:00 (UTC−5 to UTC−4).
    const cases = [
      { zone: "America/Santiago", day: "2026-09-06", before: ["2026-09-06T03:30:00Z", "2026-09-06T03:59:00Z"], within: ["2026-09-06T04:00:00Z", "2026-09-06T12:00:00Z", "2026-09-07T02:59:00Z"], after: ["2026-09-07T03:00:00Z"] },
      { zone: "America/Havana", day: "2026-03-08", before: ["2026-03-08T04:30:00Z"], within: ["2026-03-08T05:00:00Z", "2026-03-09T03:59:00Z"], after: ["2026-03-09T04:00:00Z"] },
    ];
    for (const { zone, day, before, within, after } of cases) {
      const owner = `dst-${randomUUID().slice(0, 8)}`;
      const inDay: string[] = [];
      for (const at of [...before, ...within, ...after]) {
        const itemId = randomUUID();
        if (within.includes(at)) inDay.push(itemId);
        await documents.recordEvents(owner, itemId, [created(new Date(at), `DST ${at}`)], ctx);
      }
      const resolved = resolvePeriod({ range: "custom", from: day, to: day }, zone, new Date("2026-11-27T00:00:00Z"));
      if (!resolved.ok) throw new Error(`${zone} ${day} did not resolve`);
      const overview = await operator.getOperatorOverview(resolved.period);
      expect(overview.days, zone).toEqual([{ day, created: within.length, uploaded: 0, failed: 0 }]);
      expect(overview.created, zone).toBe(overview.days.reduce((sum, d) => sum + d.created, 0));
      const exported: string[] = [];
      for await (const batch of operator.exportPeriodBatches(resolved.period, 2)) exported.push(...batch.filter((d) => d.userKey === owner).map((d) => d.itemId));
      expect(exported, zone).toEqual(inDay);
    }
  });

  it("removes users not seen since the cutoff only once they have no documents left", async () => {
    const gone = `gone-${randomUUID().slice(0, 8)}`;
    await users.recordUserSignIn(gone, { email: "gone@example.com", email_verified: true }, new Date("2020-01-01T00:00:00Z"));
    const before = new Date("2021-01-01T00:00:00Z");
    // alice and bob were seen in 2026; they stay whatever their documents.
    expect(await operator.deleteUsersNotSeenSince(before)).toBeGreaterThanOrEqual(1);
    expect(await operator.getOperatorUser(gone)).toBeNull();
    expect((await operator.getOperatorUser(alice))?.user).not.toBeNull();
  });
});
