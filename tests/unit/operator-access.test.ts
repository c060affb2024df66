import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/env";
import { isOperatorEmail } from "@/lib/operators/operator-access";
import { verifiedEmailOf } from "@/lib/operators/user-records";
import { signedInCookie } from "../support/signed-in-cookie";

const ORIGIN = "http://localhost:3000";
const AUTH_SECRET = "unit-test-secret-0123456789abcdef0123456789";

describe("who is an operator", () => {
  it("keeps an email only when the service marked it verified, with the boolean true", () => {
    expect(verifiedEmailOf({ email: " Ops@Example.COM ", email_verified: true })).toBe("ops@example.com");
    expect(verifiedEmailOf({ email: "ops@example.com", email_verified: false })).toBeNull();
    expect(verifiedEmailOf({ email: "ops@example.com" })).toBeNull();
    expect(verifiedEmailOf({ email: "ops@example.com", email_verified: "true" })).toBeNull();
    expect(verifiedEmailOf({ email_verified: true })).toBeNull();
  });

  it("matches a verified email against OPERATOR_EMAILS without regard to case, and never no email", () => {
    const { operatorEmails } = parseConfig({ AUTH_SECRET, OPERATOR_EMAILS: " Ops@Example.com , lead@example.org," });
    expect([...operatorEmails]).toEqual(["ops@example.com", "lead@example.org"]);
    expect(isOperatorEmail(operatorEmails, "OPS@example.COM")).toBe(true);
    expect(isOperatorEmail(operatorEmails, "ops@example.co")).toBe(false);
    expect(isOperatorEmail(operatorEmails, null)).toBe(false);
    expect(parseConfig({ AUTH_SECRET }).operatorEmails.size).toBe(0);
  });

  it("refuses an OPERATOR_EMAILS entry that is not an address, naming it", () => {
    let error: unknown;
    try {
      parseConfig({ AUTH_SECRET, OPERATOR_EMAILS: "ops@example.com, bob, carol@ example.com" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.filter((p) => p.startsWith("OPERATOR_EMAILS"));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('"bob" is not an email address');
    expect(problems[1]).toContain('"carol@ example.com" is not an email address');
  });
});

// The operator routes over a real embedded session store and database (PGlite), as document-routes.test.ts does.
describe("the operator routes", () => {
  let dir: string;
  let exportRoute: typeof import("@/app/api/operator/export/route");
  let accessExportRoute: typeof import("@/app/api/operator/access-log/export/route");
  let closeDatabase: () => Promise<void>;
  let deleteSession: (id: string) => Promise<unknown>;
  const cookies: Record<"operator" | "user" | "unverified", string> = { operator: "", user: "", unverified: "" };
  let operatorSessionHandle = "";
  let operatorKey = "";
  let execute: (statement: string) => Promise<unknown>;

  const get = (route: { GET: (req: NextRequest, ctx: object) => Promise<Response> }, path: string, cookie?: string) =>
    route.GET(new NextRequest(`${ORIGIN}${path}`, { headers: cookie ? { cookie } : {} }), {});

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "operator-routes-"));
    Object.assign(process.env, {
      AUTH_SECRET,
      SESSION_STORE_DIR: join(dir, "sessions"),
      DATABASE_DIR: join(dir, "db"),
      OPERATOR_EMAILS: "Oscar@Example.com,unverified@example.com",
    });
    exportRoute = await import("@/app/api/operator/export/route");
    accessExportRoute = await import("@/app/api/operator/access-log/export/route");
    const db = await import("@/lib/db/client");
    closeDatabase = db.closeDatabase;
    const database = await db.getDatabase();
    execute = (statement) => database.db.execute(sql.raw(statement));
    const { userRecords } = await import("@/lib/operators/user-records");
    const { userKeyFor } = await import("@/lib/auth/user-key");
    const { getConfig } = await import("@/lib/env");
    const sessions = await import("@/lib/session/sessions");
    deleteSession = sessions.deleteSession;
    const people = [
      ["operator", { email: "oscar@example.com", email_verified: true }],
      ["user", { email: "bob@example.com", email_verified: true }],
      // Listed in OPERATOR_EMAILS, but the service never verified the address.
      ["unverified", { email: "unverified@example.com", email_verified: false }],
    ] as const;
    for (const [who, claims] of people) {
      const subject = `${who}-${randomUUID()}`;
      await userRecords.recordUserSignIn(userKeyFor(getConfig().issuer, subject), claims);
      cookies[who] = await signedInCookie(subject, ORIGIN);
      if (who === "operator") {
        operatorSessionHandle = (await sessions.sessionsOfSubject(subject))[0]!.id;
        operatorKey = userKeyFor(getConfig().issuer, subject);
      }
    }
  });

  afterAll(async () => {
    await closeDatabase?.();
    await rm(dir, { recursive: true, force: true });
  });

  it("answer 404 to anyone but an operator, signed out, a user, or an unverified listed email, whatever the input", async () => {
    for (const cookie of [undefined, cookies.user, cookies.unverified]) {
      for (const [route, path] of [
        [exportRoute, "/api/operator/export?format=csv&range=7d"],
        [exportRoute, "/api/operator/export?format=xml"],
        [accessExportRoute, "/api/operator/access-log/export?format=json"],
      ] as const) {
        const res = await get(route, path, cookie);
        expect(res.status).toBe(404);
        expect((await res.json()).error.code).toBe("NOT_FOUND");
      }
    }
  });

  it("answer 400 naming the field for a bad format or period", async () => {
    const cases: Array<[string, string]> = [
      ["/api/operator/export?format=xml", "format"],
      ["/api/operator/export?format=csv&range=year", "range"],
      ["/api/operator/export?format=csv&range=custom&from=2026-02-30&to=2026-03-01", "from"],
      ["/api/operator/export?format=csv&range=custom&from=2026-11-01", "to"],
      ["/api/operator/export?format=csv&range=custom&from=2026-11-02&to=2026-11-01", "to"],
    ];
    for (const [path, field] of cases) {
      const res = await get(exportRoute, path, cookies.operator);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("VALIDATION_FAILED");
      expect(Object.keys(body.error.fields)).toEqual([field]);
    }
    const res = await get(accessExportRoute, "/api/operator/access-log/export?format=pdf", cookies.operator);
    expect(res.status).toBe(400);
    expect(Object.keys((await res.json()).error.fields)).toEqual(["format"]);
  });

  it("stream the export to an operator and log it in the access log, which is exported too", async () => {
    const res = await get(exportRoute, "/api/operator/export?format=csv&range=custom&from=2026-11-01&to=2026-11-02", cookies.operator);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="documents-all-users-2026-11-01-to-2026-11-02.csv"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const log = await get(accessExportRoute, "/api/operator/access-log/export?format=json", cookies.operator);
    expect(log.status).toBe(200);
    const entries = (await log.json()).entries as { action: string; operatorEmail: string; detail: string }[];
    expect(entries.map((e) => [e.action, e.operatorEmail, e.detail])).toEqual([
      ["export", "oscar@example.com", "2026-11-01..2026-11-02 UTC csv"],
      ["export_access_log", "oscar@example.com", "json"],
    ]);
  });

  it("answer 400 naming the field for a year past 9998 or before 1970, not a 500", async () => {
    for (const [path, field] of [
      ["/api/operator/export?format=csv&range=custom&from=9999-12-31&to=9999-12-31", "from"],
      ["/api/operator/export?format=csv&range=custom&from=9998-12-31&to=9999-12-31", "to"],
      ["/api/operator/export?format=json&range=custom&from=1969-12-31&to=1970-01-01", "from"],
    ] as const) {
      const res = await get(exportRoute, path, cookies.operator);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: "VALIDATION_FAILED", fields: { [field]: [`${field} must be a day in the years 1970–9998`] } });
    }
  });

  it("run the export in one of the operator's export slots, reading 100 rows a query through the export query gate on PGlite", async () => {
    const { exportSlots } = await import("@/lib/documents/export-slots");
    const { exportQueryGate } = await import("@/lib/documents/export-slots");
    // 250 documents on a day of their own.
    await execute(`insert into documents (user_key, item_id, file_id, subdocid, name, doctype, status, created_at, updated_at)
      select 'bulk-owner', md5('bulk' || g)::uuid::text, md5('f' || g)::uuid::text, 0, 'Bulk ' || g, 'contract', 'created',
             timestamptz '2026-10-01' + g * interval '1 second', timestamptz '2026-10-01'
      from generate_series(1, 250) g`);
    const gate = exportQueryGate("pglite");
    const run = gate.run;
    let queries = 0;
    gate.run = (work) => {
      queries += 1;
      return run(work);
    };
    try {
      const res = await get(exportRoute, "/api/operator/export?format=csv&range=custom&from=2026-10-01&to=2026-10-01", cookies.operator);
      expect(res.status).toBe(200);
      // The first batch is read before the answer; the slot is held until the last one.
      expect(exportSlots.count(operatorKey).running).toBe(1);
      const lines = (await res.text()).trimEnd().split("\r\n");
      expect(lines).toHaveLength(251);
      expect(queries).toBe(3);
      expect(exportSlots.count(operatorKey).running).toBe(0);
    } finally {
      gate.run = run;
    }
    // With the operator's slots all taken, the next export waits its turn (a client that leaves gets nothing).
    const held = [await exportSlots.acquire(operatorKey), await exportSlots.acquire(operatorKey)];
    try {
      const leaving = new AbortController();
      const waiting = accessExportRoute.GET(new NextRequest(`${ORIGIN}/api/operator/access-log/export?format=json`, { headers: { cookie: cookies.operator }, signal: leaving.signal }), {});
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(exportSlots.count(operatorKey).waiting).toBe(1);
      leaving.abort();
      expect((await waiting).status).toBe(204);
    } finally {
      for (const release of held) if (typeof release === "function") release();
    }
  });

  it("answer 503 with no data, and give the slot back, when the access log's insert fails with 'disk full'", async () => {
    const { exportSlots } = await import("@/lib/documents/export-slots");
    await execute(`create function fail_access_log() returns trigger language plpgsql as $$ begin raise exception 'could not extend file' using errcode = '53100'; end $$`);
    await execute(`create trigger fail_access_log before insert on operator_access_log for each row execute function fail_access_log()`);
    try {
      for (const [route, path] of [
        [exportRoute, "/api/operator/export?format=json&range=custom&from=2026-10-01&to=2026-10-01"],
        [accessExportRoute, "/api/operator/access-log/export?format=csv"],
      ] as const) {
        const res = await get(route, path, cookies.operator);
        expect(res.status, path).toBe(503);
        const text = await res.text();
        expect(JSON.parse(text).error.code).toBe("DATABASE_UNAVAILABLE");
        expect(text).not.toMatch(/@example\.com|Bulk /);
        expect(exportSlots.count(operatorKey)).toEqual({ running: 0, waiting: 0 });
      }
    } finally {
      await execute(`drop trigger fail_access_log on operator_access_log`);
      await execute(`drop function fail_access_log()`);
    }
  });

  it("know a user found to be an operator for a day while the database does not answer, and nobody else", async () => {
    const { operatorOf, createKnownOperators, KNOWN_OPERATOR_TTL_MS } = await import("@/lib/operators/operator-access");
    const { DatabaseUnavailableError } = await import("@/lib/db/database-errors");
    let clock = 0;
    const known = createKnownOperators(() => clock);
    const emails = new Set(["oscar@example.com"]);
    const down = async (): Promise<string | null> => {
      throw new DatabaseUnavailableError("down");
    };
    let answer: () => Promise<string | null> = async () => "oscar@example.com";
    const records = { verifiedEmailOfUser: () => answer() };
    const of = (subject: string) => operatorOf(subject, records, emails, known);
    expect(await of("oscar")).toMatchObject({ email: "oscar@example.com" });
    answer = down;
    expect(await of("oscar")).toMatchObject({ email: "oscar@example.com" });
    await expect(of("bob")).rejects.toThrow("down");
    // Not an outage: any other error is thrown, known or not.
    answer = async () => {
      throw new Error("syntax error");
    };
    await expect(of("oscar")).rejects.toThrow("syntax error");
    // A day from the database's answer; the outage's own calls do not extend it.
    answer = down;
    clock = KNOWN_OPERATOR_TTL_MS;
    expect(await of("oscar")).not.toBeNull();
    clock = KNOWN_OPERATOR_TTL_MS + 1;
    await expect(of("oscar")).rejects.toThrow("down");
    // The database saying otherwise is remembered at once.
    answer = async () => "oscar@example.com";
    expect(await of("oscar")).not.toBeNull();
    answer = async () => null;
    expect(await of("oscar")).toBeNull();
    answer = down;
    await expect(of("oscar")).rejects.toThrow("down");
  });

  it("answer 503 to an operator while the database is held by another process, and still 404 to anyone else", async () => {
    // The operator is found once with the database up.
    expect((await get(accessExportRoute, "/api/operator/access-log/export?format=json", cookies.operator)).status).toBe(200);
    await closeDatabase();
    const holder = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "tests/support/acquire-data-dir-lock.ts", join(dir, "db")], { stdio: ["pipe", "pipe", "inherit"] });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = "";
        holder.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("locked")) resolve();
        });
        holder.once("exit", (code) => reject(new Error(`lock holder exited ${code}`)));
      });
      const operator = await get(exportRoute, "/api/operator/export?format=csv&range=7d", cookies.operator);
      expect(operator.status).toBe(503);
      expect((await operator.json()).error).toMatchObject({ code: "DATABASE_UNAVAILABLE", message: "The database is not answering: operator data and exports are unavailable until it is back." });
      for (const cookie of [undefined, cookies.user, cookies.unverified]) {
        const res = await get(exportRoute, "/api/operator/export?format=csv&range=7d", cookie);
        expect(res.status).toBe(404);
      }
    } finally {
      holder.stdin.end();
      await new Promise((resolve) => holder.once("exit", resolve));
    }
    // The folder free again: the next request opens it.
    expect((await get(accessExportRoute, "/api/operator/access-log/export?format=json", cookies.operator)).status).toBe(200);
  });

  it("answer 404 to the operator once their session has ended (signed out)", async () => {
    await deleteSession(operatorSessionHandle);
    const res = await get(accessExportRoute, "/api/operator/access-log/export?format=json", cookies.operator);
    expect(res.status).toBe(404);
  });
});
