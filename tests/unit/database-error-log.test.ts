import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/client";
import { DatabaseUnavailableError, describeDatabaseError } from "@/lib/db/database-errors";
import { documentRecordsFor, type DocumentRecords } from "@/lib/documents/document-records";
import { toErrorResponse } from "@/lib/errors";

// A document name is personal data, and the user key identifies a person: a failed query must be logged by its
// operation and SQLSTATE alone, never with Drizzle's "Failed query: … params: …" or the driver's message.
const NAME = "Employment contract — J. Smith";
const dir = mkdtempSync(join(tmpdir(), "esign-db-error-log-"));
let database: OpenDatabase;
let records: DocumentRecords;

beforeAll(async () => {
  database = await openDatabase({ dir: join(dir, "db") });
  records = documentRecordsFor(async () => database);
});

afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the process's logger writes while `work` runs (the readable format tests use: one line per record). */
async function logged(work: () => Promise<void> | void): Promise<string> {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await work();
  } finally {
    write.mockRestore();
  }
  return lines.join("");
}

describe("database errors in the logs", () => {
  it("a refused query is logged by SQLSTATE and operation, without the document name, the user key or the SQL", async () => {
    const userKey = `user-key-${randomUUID()}`;
    // PostgreSQL refuses a NUL in text (SQLSTATE 22021): a query that fails with the name among its parameters.
    const error = await records
      .recordCreated(userKey, { itemId: randomUUID(), fileId: randomUUID(), subdocid: 0, name: `${NAME}\u0000.pdf`, doctype: "contract" }, { requestId: "req-1" })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    // Whatever prints the error with its cause chain (Next logs a page's error with console.error) finds nothing either.
    expect(inspect(error, { depth: 10 })).not.toContain(NAME);
    expect(inspect(error, { depth: 10 })).not.toContain(userKey);
    let status = 0;
    let body = "";
    const log = await logged(async () => {
      const res = toErrorResponse(error, "req-1");
      status = res.status;
      body = await res.text();
    });
    expect(status).toBe(500);
    expect(log).toMatch(/database record_created failed \(SQLSTATE 22021\)/);
    for (const leak of [NAME, userKey, "Failed query", "params", "insert into", "invalid byte sequence"]) {
      expect(log, leak).not.toContain(leak);
      expect(body, leak).not.toContain(leak);
    }
  });

  it("a database that is down is logged by its network code, not its address", () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:5432"), { code: "ECONNREFUSED" });
    const text = describeDatabaseError(new Error(`Failed query: select * from documents where user_key = $1\nparams: user-key-1`, { cause }));
    expect(text).toBe("unreachable (ECONNREFUSED)");
    expect(describeDatabaseError(new DatabaseUnavailableError("database list: no answer in time", { cause }))).toBe("database list: no answer in time");
  });
});
