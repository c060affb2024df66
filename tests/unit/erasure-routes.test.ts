import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signedInCookie } from "../support/signed-in-cookie";

// "Delete my records" and the operator's erasure through their route handlers, over a real embedded session store and
// database, with a stand-in for the service's create operation that answers when the test lets it.
const ORIGIN = "http://localhost:3000";

/** Set by a test: the next ending of a user's sessions fails as an unreachable session store does. */
let sessionStoreDownOnce = false;
vi.mock("@/lib/session/user-sessions", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/session/user-sessions")>();
  const { SessionStoreUnavailableError } = await import("@/lib/session/session-store");
  return {
    ...actual,
    endAllUserSessions: async (current: Parameters<typeof actual.endAllUserSessions>[0]) => {
      if (sessionStoreDownOnce) {
        sessionStoreDownOnce = false;
        throw new SessionStoreUnavailableError("session store: connection refused");
      }
      return actual.endAllUserSessions(current);
    },
  };
});
const AUTH_SECRET = "unit-test-secret-0123456789abcdef0123456789";

let dir: string;
let service: Server;
/** Creations the stand-in service holds until the test answers them. */
const heldCreations: (() => void)[] = [];
let userRoute: typeof import("@/app/api/account/erasure/route");
let operatorRoute: typeof import("@/app/api/operator/users/[userKey]/erasure/route");
let eventsRoute: typeof import("@/app/api/documents/[itemId]/events/route");
let listRoute: typeof import("@/app/api/documents/route");
let accessExportRoute: typeof import("@/app/api/operator/access-log/export/route");
let erasure: typeof import("@/lib/erasure/user-erasure");
let userKeyOf: (subject: string) => string;
let signInRecord: (subject: string, email: string) => Promise<void>;
let closeDatabase: () => Promise<void>;

function post(path: string, cookie: string | undefined, body: unknown): NextRequest {
  return new NextRequest(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}
const eraseOwn = (cookie: string | undefined, body: unknown = { confirm: "erase-my-records" }) => userRoute.POST(post("/api/account/erasure", cookie, body), {});
const eraseByOperator = (cookie: string | undefined, userKey: string, body: unknown) =>
  operatorRoute.POST(post(`/api/operator/users/${userKey}/erasure`, cookie, body), { params: Promise.resolve({ userKey }) });
const report = (cookie: string, itemId: string, events: unknown[]) =>
  eventsRoute.POST(post(`/api/documents/${itemId}/events`, cookie, { events }), { params: Promise.resolve({ itemId }) });
const list = (cookie: string) => listRoute.GET(new NextRequest(`${ORIGIN}/api/documents?limit=100`, { headers: { cookie } }), {});
const created = (at = new Date(Date.now() - 60_000).toISOString()) => ({
  id: randomUUID(),
  type: "created",
  at,
  fileId: randomUUID(),
  subdocid: 0,
  container: "documents",
  name: "Supplier agreement",
  doctype: "agreement",
});

/** A user signed in twice (two browsers), with one reported document. */
async function userWithTwoSessions(): Promise<{ subject: string; userKey: string; first: string; second: string; itemId: string }> {
  const subject = `user-${randomUUID()}`;
  await signInRecord(subject, `${subject}@example.test`);
  const first = await signedInCookie(subject, ORIGIN);
  const second = await signedInCookie(subject, ORIGIN);
  const itemId = randomUUID();
  expect((await report(first, itemId, [created()])).status).toBe(200);
  return { subject, userKey: userKeyOf(subject), first, second, itemId };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "erasure-routes-"));
  service = createServer((req, res) => {
    req.resume();
    const id = () => randomUUID().toUpperCase();
    heldCreations.push(() =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ itemId: id(), fileId: id(), container: "documents", subdocid: 0, uploadendpoint: "http://127.0.0.1:10000/devstoreaccount1/documents/blob" })),
    );
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  Object.assign(process.env, {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: "http://127.0.0.1:1",
    ESIGN_API_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
    AUTH_SECRET,
    SESSION_STORE_DIR: join(dir, "sessions"),
    DATABASE_DIR: join(dir, "db"),
    OPERATOR_EMAILS: "oscar@example.com",
    RATE_LIMIT_RECORDS_ERASE: "4/60",
  });
  userRoute = await import("@/app/api/account/erasure/route");
  operatorRoute = await import("@/app/api/operator/users/[userKey]/erasure/route");
  eventsRoute = await import("@/app/api/documents/[itemId]/events/route");
  listRoute = await import("@/app/api/documents/route");
  accessExportRoute = await import("@/app/api/operator/access-log/export/route");
  erasure = await import("@/lib/erasure/user-erasure");
  const db = await import("@/lib/db/client");
  closeDatabase = db.closeDatabase;
  await db.getDatabase();
  const { userRecords } = await import("@/lib/operators/user-records");
  const { userKeyFor } = await import("@/lib/auth/user-key");
  const { getConfig } = await import("@/lib/env");
  userKeyOf = (subject) => userKeyFor(getConfig().issuer, subject);
  signInRecord = (subject, email) => userRecords.recordUserSignIn(userKeyOf(subject), { email, email_verified: true, name: "Taro Suzuki" });
});

afterAll(async () => {
  await closeDatabase();
  await new Promise((resolve) => service.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe("POST /api/account/erasure", () => {
  it("answers 401 without a session and 400 naming confirm without the confirmation word, erasing nothing", async () => {
    expect((await eraseOwn(undefined)).status).toBe(401);
    const { first, userKey } = await userWithTwoSessions();
    for (const body of [{}, { confirm: "yes" }, { confirm: "erase-my-records", extra: 1 }]) {
      const answer = await eraseOwn(first, body);
      expect(answer.status).toBe(400);
      const fields = (await answer.json()).error.fields;
      expect(Object.keys(fields)).toEqual([Object.keys(body).find((k) => k !== "confirm") ?? "confirm"]);
    }
    expect((await erasure.erasureRecords.countUserRecords(userKey)).documents).toBe(1);
  });

  it("erases the records, ends every session of the user, and a late report of the erased document is refused with 410", async () => {
    const { subject, userKey, first, second, itemId } = await userWithTwoSessions();
    const answer = await eraseOwn(first);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ erased: { documents: 1, events: 1, user: true }, sessionsEnded: 2 });
    expect(answer.headers.get("set-cookie")).toContain("fresh-login");
    expect(await erasure.erasureRecords.countUserRecords(userKey)).toEqual({ documents: 0, events: 0, user: false });
    // The other browser is signed out.
    expect((await list(second)).status).toBe(401);

    // Signed in again later, the browser's outbox delivers a report made before the erasure: gone for good.
    const again = await signedInCookie(subject, ORIGIN);
    const late = await report(again, randomUUID(), [created()]);
    expect(late.status).toBe(410);
    expect((await late.json()).error.code).toBe("RECORDS_ERASED");
    expect((await report(again, itemId, [{ id: randomUUID(), type: "uploaded", at: new Date().toISOString(), mode: "single", bytes: 1, md5: null }])).status).toBe(404);
    expect((await erasure.erasureRecords.countUserRecords(userKey)).documents).toBe(0);
  });

  it("a database outage erases nothing and signs nobody out (503); the same request again then does the whole erasure", async () => {
    const { DatabaseUnavailableError } = await import("@/lib/db/database-errors");
    const { userKey, first, second } = await userWithTwoSessions();
    const outage = vi.spyOn(erasure.erasureRecords, "eraseUserRecords").mockRejectedValueOnce(new DatabaseUnavailableError("database erasure erase: connection refused"));
    try {
      const failed = await eraseOwn(first);
      expect(failed.status).toBe(503);
      expect((await failed.json()).error.code).toBe("DATABASE_UNAVAILABLE");
    } finally {
      outage.mockRestore();
    }
    expect((await list(second)).status).toBe(200);
    expect((await erasure.erasureRecords.countUserRecords(userKey)).documents).toBe(1);

    const retried = await eraseOwn(first);
    expect(await retried.json()).toEqual({ erased: { documents: 1, events: 1, user: true }, sessionsEnded: 2 });
    expect((await list(second)).status).toBe(401);
  });

  it("a session store outage after the erasure: 503 with the records gone; the same request again ends the sessions", async () => {
    const { userKey, first, second } = await userWithTwoSessions();
    sessionStoreDownOnce = true;
    const failed = await eraseOwn(first);
    expect(failed.status).toBe(503);
    expect((await failed.json()).error.code).toBe("SESSION_STORE_UNAVAILABLE");
    expect(await erasure.erasureRecords.countUserRecords(userKey)).toEqual({ documents: 0, events: 0, user: false });
    expect((await list(second)).status).toBe(200);

    const retried = await eraseOwn(first);
    expect(await retried.json()).toEqual({ erased: { documents: 0, events: 0, user: false }, sessionsEnded: 2 });
    expect((await list(second)).status).toBe(401);
  });

  it("two tabs erasing at once: each answers 200 or 401 (already signed out), the records go once, every session ends", async () => {
    const { userKey, first, second } = await userWithTwoSessions();
    const answers = await Promise.all([eraseOwn(first), eraseOwn(second)]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.status === 200 || a.status === 401)).toBe(true);
    const bodies = await Promise.all(ok.map((a) => a.json()));
    expect(bodies.reduce((sum, b) => sum + b.erased.documents, 0)).toBe(1);
    expect(await erasure.erasureRecords.countUserRecords(userKey)).toEqual({ documents: 0, events: 0, user: false });
    expect((await list(first)).status).toBe(401);
    expect((await list(second)).status).toBe(401);
  });

  it("erasing while an upload's document is being created: the creation answers 410 RECORDS_ERASED and records nothing", async () => {
    const createRoute = await import("@/app/api/documents/route");
    const { userKey, first, second } = await userWithTwoSessions();
    // The other tab asks for a document; the service is still answering when the erasure lands.
    const creation = createRoute.POST(post("/api/documents", second, { name: "Scan of the lease", doctype: "contract" }), {});
    await expect.poll(() => heldCreations.length).toBe(1);
    expect((await eraseOwn(first)).status).toBe(200);
    heldCreations.shift()!();
    const answer = await creation;
    expect(answer.status).toBe(410);
    expect((await answer.json()).error.code).toBe("RECORDS_ERASED");
    expect(await erasure.erasureRecords.countUserRecords(userKey)).toEqual({ documents: 0, events: 0, user: false });
  });

  it("has a budget: past it, 429 with Retry-After, before the body is read", async () => {
    const { first } = await userWithTwoSessions();
    for (let i = 0; i < 4; i += 1) expect((await eraseOwn(first, {})).status).toBe(400);
    const refused = await eraseOwn(first, {});
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error.limit).toBe("records-erase");
  });
});

describe("POST /api/operator/users/{userKey}/erasure", () => {
  let operatorCookie = "";
  let operatorKey = "";
  beforeAll(async () => {
    const subject = `oscar-${randomUUID()}`;
    await signInRecord(subject, "oscar@example.com");
    operatorCookie = await signedInCookie(subject, ORIGIN);
    operatorKey = userKeyOf(subject);
  });

  it("answers 404 to anyone but an operator, before reading the input", async () => {
    const { first, userKey } = await userWithTwoSessions();
    const answer = await eraseByOperator(first, userKey, { reason: "Phone call" });
    expect(answer.status).toBe(404);
    expect((await eraseByOperator(undefined, userKey, {})).status).toBe(404);
    expect((await erasure.erasureRecords.countUserRecords(userKey)).documents).toBe(1);
  });

  it("needs a reason (3–300 characters, no email address), and refuses the operator's own key, naming the field", async () => {
    const { userKey } = await userWithTwoSessions();
    const cases: [unknown, string][] = [
      [{}, "reason"],
      [{ reason: "  a " }, "reason"],
      [{ reason: "x".repeat(301) }, "reason"],
      [{ reason: `Asked by ${userKey}@example.test` }, "reason"],
    ];
    for (const [body, field] of cases) {
      const answer = await eraseByOperator(operatorCookie, userKey, body);
      expect(answer.status).toBe(400);
      expect(Object.keys((await answer.json()).error.fields)).toEqual([field]);
    }
    const own = await eraseByOperator(operatorCookie, operatorKey, { reason: "Testing myself" });
    expect(own.status).toBe(400);
    expect(Object.keys((await own.json()).error.fields)).toEqual(["userKey"]);
    expect((await erasure.erasureRecords.countUserRecords(userKey)).documents).toBe(1);
  });

  it("erases the user and writes erase_user with the operator and the reason, which the access log's CSV carries without the email", async () => {
    const { subject, userKey, second } = await userWithTwoSessions();
    const answer = await eraseByOperator(operatorCookie, userKey, { reason: " Letter of 28 Nov, ticket 4411 " });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ erased: { documents: 1, events: 1, user: true } });
    expect(await erasure.erasureRecords.countUserRecords(userKey)).toEqual({ documents: 0, events: 0, user: false });
    // The user's session stays (sessions are found by subject, not key), but the erased document never comes back.
    expect((await report(second, randomUUID(), [created()])).status).toBe(410);

    const exported = await accessExportRoute.GET(new NextRequest(`${ORIGIN}/api/operator/access-log/export?format=csv`, { headers: { cookie: operatorCookie } }), {});
    expect(exported.status).toBe(200);
    const csv = await exported.text();
    const line = csv.split("\r\n").find((l) => l.includes(",erase_user,"));
    // The subject's email column is empty: the user record is gone, and the line never held it.
    expect(line).toContain(`,oscar@example.com,${operatorKey},erase_user,${userKey},,,"Letter of 28 Nov, ticket 4411"`);
    expect(csv).not.toContain(`${subject}@example.test`);
    expect(csv).not.toContain("Supplier agreement");
  });
});
