import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type OpenDatabase } from "@/lib/db/client";
import type { DocumentEventInput } from "@/lib/documents/document-record-input";
import { documentRecordsFor, type DocumentRecords } from "@/lib/documents/document-records";
import { erasureRecordsFor, eraseUserRecordsIn, listErasuresIn, reapplyErasuresIn, type ErasureRecords } from "@/lib/erasure/user-erasure";
import { AppError } from "@/lib/errors";
import { userRecordsFor } from "@/lib/operators/user-records";
import { databaseBackends } from "../support/database-backends";

// Erasure on both ways of running the database: PGlite in this process and a real PostgreSQL started by this file.
const POSTGRES_PORT = Number(process.env.TEST_ERASURE_POSTGRES_PORT ?? 4705);

const backends = databaseBackends(POSTGRES_PORT, "esign-erasure-test-");
const ctx = { requestId: "req-1", device: "Firefox 133 on Linux" };
const newUser = () => `user-${randomUUID().slice(0, 12)}`;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function created(at = ago(60_000), name = "Lease 2026"): DocumentEventInput {
  return { id: randomUUID(), type: "created", at, fileId: randomUUID(), subdocid: 0, container: "documents", name, doctype: "contract" };
}
const uploaded = (): DocumentEventInput => ({ id: randomUUID(), type: "uploaded", at: ago(1_000), mode: "single", bytes: 10, md5: null });

describe.each(backends)("erasure on %s", (_name, open) => {
  let database: OpenDatabase;
  let records: DocumentRecords;
  let erasure: ErasureRecords;
  const signIn = (userKey: string, email: string) => userRecordsFor(async () => database).recordUserSignIn(userKey, { email, email_verified: true, name: "Hanako Yamada" });

  beforeAll(async () => {
    database = await open();
    records = documentRecordsFor(async () => database);
    erasure = erasureRecordsFor(async () => database);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** Every row of every table that holds `text` in any column, by table: a logical scan of the whole database. */
  async function tablesHolding(text: string): Promise<string[]> {
    const tables = await queryRows<{ table_name: string }>(database.db, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const holding: string[] = [];
    for (const { table_name } of tables) {
      const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.identifier(table_name)} t where t::text like ${`%${text}%`}`);
      if ((row?.n ?? 0) > 0) holding.push(table_name);
    }
    return holding.sort();
  }

  /** A user with two documents (three events) and a user record. */
  async function userWithRecords(): Promise<{ user: string; email: string; items: string[] }> {
    const user = newUser();
    const email = `${user}@example.test`;
    await signIn(user, email);
    const items = [randomUUID(), randomUUID()];
    await records.recordEvents(user, items[0]!, [created(ago(120_000), `Contract of ${user}`), uploaded()], ctx);
    await records.recordEvents(user, items[1]!, [created(ago(60_000), `Offer of ${user}`)], ctx);
    return { user, email, items };
  }

  it("erases a user's documents, events and user record in one go, leaves other users' alone, and keeps only a ledger line", async () => {
    const { user, email, items } = await userWithRecords();
    const other = await userWithRecords();
    expect(await erasure.countUserRecords(user)).toEqual({ documents: 2, events: 3, user: true });

    const erased = await erasure.eraseUserRecords(user);

    expect(erased).toMatchObject({ documents: 2, events: 3, user: true });
    expect(await records.getDocument(user, items[0]!)).toBeNull();
    expect(await erasure.countUserRecords(user)).toEqual({ documents: 0, events: 0, user: false });
    expect(await tablesHolding(user)).toEqual(["erasure_ledger"]);
    expect(await tablesHolding(email)).toEqual([]);
    expect(await erasure.countUserRecords(other.user)).toEqual({ documents: 2, events: 3, user: true });
    const ledger = (await erasure.listErasures()).filter((e) => e.userKey === user);
    expect(ledger).toEqual([{ userKey: user, erasedAt: erased.erasedAt }]);
    // The ledger keeps the key and the time, nothing else.
    const columns = await queryRows<{ column_name: string }>(database.db, sql`select column_name from information_schema.columns where table_name = 'erasure_ledger' order by column_name`);
    expect(columns.map((c) => c.column_name)).toEqual(["erased_at", "user_key"]);
  });

  it("erasing twice: the second finds nothing left, answers the same way, and adds its own ledger line", async () => {
    const { user } = await userWithRecords();
    await erasure.eraseUserRecords(user);
    const again = await erasure.eraseUserRecords(user);
    expect(again).toMatchObject({ documents: 0, events: 0, user: false });
    expect((await erasure.listErasures()).filter((e) => e.userKey === user)).toHaveLength(2);
  });

  it("two erasures at once (two tabs): one after the other, together removing each record once, neither failing", async () => {
    const { user } = await userWithRecords();
    const both = await Promise.all([erasure.eraseUserRecords(user), erasure.eraseUserRecords(user)]);
    expect(both.map((e) => e.documents).sort()).toEqual([0, 2]);
    expect(both.map((e) => e.events).sort()).toEqual([0, 3]);
    expect(await erasure.countUserRecords(user)).toEqual({ documents: 0, events: 0, user: false });
  });

  it("a late report or creation of a document made before the erasure is refused with RECORDS_ERASED (410) and brings nothing back", async () => {
    const { user, items } = await userWithRecords();
    const before = new Date(Date.now() - 5_000);
    await erasure.eraseUserRecords(user);

    // The outbox's late report of the creation (its own time, before the erasure), and of a milestone of an erased document.
    const late = records.recordEvents(user, randomUUID(), [created(before.toISOString()), uploaded()], ctx);
    await expect(late).rejects.toMatchObject({ code: "RECORDS_ERASED", status: 410 });
    expect(await records.recordEvents(user, items[0]!, [uploaded()], ctx)).toBeNull();
    // The create route's write for a request that began before the erasure.
    const createdRecord = records.recordCreated(user, { itemId: randomUUID(), fileId: randomUUID(), subdocid: 0, name: "Late", doctype: "contract" }, ctx, before);
    await expect(createdRecord).rejects.toBeInstanceOf(AppError);
    // The old browser list imported again.
    const imported = await records.importDocuments(user, [{ itemId: randomUUID(), fileId: randomUUID(), subdocid: 0, name: "Old", doctype: "contract", size: 1, md5Hex: null, uploadedAt: before.toISOString() }], ctx);
    expect(imported).toBe(0);
    expect(await erasure.countUserRecords(user)).toEqual({ documents: 0, events: 0, user: false });

    // What the user does after the erasure (signed in again) is recorded as new.
    await records.recordCreated(user, { itemId: randomUUID(), fileId: randomUUID(), subdocid: 0, name: "New start", doctype: "contract" }, ctx);
    expect((await erasure.countUserRecords(user)).documents).toBe(1);
  });

  it("an erasure racing an upload's reports (the user uploading while they or an operator erase): no record of the upload is left", async () => {
    for (let round = 0; round < 15; round += 1) {
      const { user } = await userWithRecords();
      const reportedAt = new Date().toISOString();
      // The upload's creation report and the erasure arrive together; whichever the database takes first, the erasure wins.
      const [report] = await Promise.allSettled([records.recordEvents(user, randomUUID(), [created(reportedAt, "Racing upload")], ctx), erasure.eraseUserRecords(user)]);
      if (report.status === "rejected") expect(report.reason).toMatchObject({ code: "RECORDS_ERASED" });
      expect(await erasure.countUserRecords(user)).toEqual({ documents: 0, events: 0, user: false });
    }
  });

  it("an operator's erasure writes its erase_user line with the reason in the same transaction, naming the user by key only", async () => {
    const { user, email } = await userWithRecords();
    const operator = { userKey: newUser(), email: "operator@example.test" };
    await erasure.eraseUserRecords(user, { operator, reason: "Phone call, ticket 4411" });
    const lines = await queryRows<{ action: string; operator_user_key: string; subject_user_key: string; detail: string; item_id: string | null }>(
      database.db,
      sql`select action, operator_user_key, subject_user_key, detail, item_id from operator_access_log where subject_user_key = ${user}`,
    );
    expect(lines).toEqual([{ action: "erase_user", operator_user_key: operator.userKey, subject_user_key: user, detail: "Phone call, ticket 4411", item_id: null }]);
    expect(await tablesHolding(user)).toEqual(["erasure_ledger", "operator_access_log"]);
    expect(await tablesHolding(email)).toEqual([]);
  });

  it("a failure mid-erasure leaves everything as it was (no ledger line, no log line), and the same erasure again completes it", async () => {
    const { user, items } = await userWithRecords();
    const operator = { userKey: newUser(), email: "operator@example.test" };
    // The database fails after the documents and events went, at the user record.
    await database.db.execute(sql.raw(`create function erasure_test_fail() returns trigger language plpgsql as $$ begin raise exception 'database went away' using errcode = '08006'; end $$`));
    await database.db.execute(sql.raw(`create trigger erasure_test_fail before delete on users for each row execute function erasure_test_fail()`));
    try {
      await expect(erasure.eraseUserRecords(user, { operator, reason: "Letter of 28 Nov" })).rejects.toMatchObject({ name: "DatabaseUnavailableError" });
    } finally {
      await database.db.execute(sql.raw(`drop trigger erasure_test_fail on users`));
      await database.db.execute(sql.raw(`drop function erasure_test_fail()`));
    }
    expect(await erasure.countUserRecords(user)).toEqual({ documents: 2, events: 3, user: true });
    expect(await records.getDocument(user, items[0]!)).not.toBeNull();
    expect((await erasure.listErasures()).filter((e) => e.userKey === user)).toEqual([]);
    expect(await queryRows(database.db, sql`select 1 from operator_access_log where subject_user_key = ${user}`)).toEqual([]);

    expect(await erasure.eraseUserRecords(user, { operator, reason: "Letter of 28 Nov" })).toMatchObject({ documents: 2, events: 3, user: true });
    expect(await tablesHolding(user)).toEqual(["erasure_ledger", "operator_access_log"]);
  });

  it("re-applies a list of erasures idempotently: records made by then go, the user's later ones stay, and the ledger gets the entries", async () => {
    const { user, email } = await userWithRecords();
    const erasedAt = new Date().toISOString();
    const entries = [{ userKey: user, erasedAt }];
    // The user came back after the erasure: what they made since is theirs.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = randomUUID();
    await records.recordEvents(user, later, [created(new Date().toISOString(), "After the erasure")], ctx);

    expect(await erasure.reapplyErasures(entries)).toEqual({ documents: 2, events: 3, user: true, users: 1 });
    expect(await erasure.reapplyErasures(entries)).toEqual({ documents: 0, events: 0, user: false, users: 0 });
    expect(await records.getDocument(user, later)).not.toBeNull();
    expect(await tablesHolding(email)).toEqual([]);
    const listed = (await erasure.listErasures(new Date(Date.parse(erasedAt) - 1))).filter((e) => e.userKey === user);
    expect(listed.map((e) => Date.parse(e.erasedAt))).toEqual([Date.parse(erasedAt)]);
    expect((await erasure.listErasures(new Date(Date.parse(erasedAt) + 1))).filter((e) => e.userKey === user)).toEqual([]);
    await expect(erasure.reapplyErasures([{ userKey: user, erasedAt: "not a time" }])).rejects.toThrow();
  });
});

describe("a restore of an embedded database backed up before an erasure", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the erased user erased once the ledger's newer entries are re-applied", async () => {
    const root = mkdtempSync(join(tmpdir(), "esign-erasure-restore-"));
    dirs.push(root);
    const live = join(root, "live");
    const backup = join(root, "backup");
    const user = newUser();
    let db = await openDatabase({ dir: live });
    await userRecordsFor(async () => db).recordUserSignIn(user, { email: `${user}@example.test`, email_verified: true });
    await documentRecordsFor(async () => db).recordEvents(user, randomUUID(), [created(ago(10_000), "Kept in the backup")], ctx);
    await db.close();
    // The backup: the closed folder, copied.
    cpSync(live, backup, { recursive: true });
    const backupTakenAt = new Date();

    db = await openDatabase({ dir: live });
    await eraseUserRecordsIn(db.db, user);
    const newer = await listErasuresIn(db.db, backupTakenAt);
    await db.close();
    expect(newer.map((e) => e.userKey)).toEqual([user]);

    const restored = await openDatabase({ dir: backup });
    try {
      expect((await erasureRecordsFor(async () => restored).countUserRecords(user)).documents).toBe(1);
      await reapplyErasuresIn(restored.db, newer);
      expect(await erasureRecordsFor(async () => restored).countUserRecords(user)).toEqual({ documents: 0, events: 0, user: false });
      expect((await listErasuresIn(restored.db)).map((e) => e.userKey)).toEqual([user]);
    } finally {
      await restored.close();
    }
  });
});
