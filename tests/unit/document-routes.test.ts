import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NextRequest } from "next/server";
import { signedInCookie } from "../support/signed-in-cookie";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The document-record routes over a real embedded session store and a real embedded database (PGlite).
const ORIGIN = "http://localhost:3000";
const CHROME_ON_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let dir: string;
let eventsRoute: typeof import("@/app/api/documents/[itemId]/events/route");
let documentRoute: typeof import("@/app/api/documents/[itemId]/route");
let exportRoute: typeof import("@/app/api/documents/export/route");
let importRoute: typeof import("@/app/api/documents/import/route");
let listRoute: typeof import("@/app/api/documents/route");
let closeDatabase: () => Promise<void>;
let alice: string;
let bob: string;


function request(path: string, options: { method?: string; cookie?: string; body?: unknown; origin?: string } = {}): NextRequest {
  return new NextRequest(`${ORIGIN}${path}`, {
    method: options.method ?? "GET",
    headers: {
      "user-agent": CHROME_ON_MAC,
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.method && options.method !== "GET" ? { origin: options.origin ?? ORIGIN } : {}),
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
}

const params = (itemId: string) => ({ params: Promise.resolve({ itemId }) });
const report = (cookie: string | undefined, itemId: string, events: unknown[], origin?: string) =>
  eventsRoute.POST(request(`/api/documents/${itemId}/events`, { method: "POST", cookie, body: { events }, origin }), params(itemId));
const created = (overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  type: "created",
  at: new Date().toISOString(),
  fileId: randomUUID(),
  subdocid: 0,
  container: "documents",
  name: "Supplier agreement",
  doctype: "agreement",
  ...overrides,
});

/** Alice's document as her list shows it (removed ones are not listed). */
async function listed(itemId: string): Promise<Record<string, unknown> | undefined> {
  const page = await (await listRoute.GET(request("/api/documents?limit=100", { cookie: alice }), {})).json();
  return page.documents.find((d: { itemId: string }) => d.itemId === itemId);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "document-routes-"));
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    SESSION_STORE_DIR: join(dir, "sessions"),
    DATABASE_DIR: join(dir, "db"),
  });
  eventsRoute = await import("@/app/api/documents/[itemId]/events/route");
  documentRoute = await import("@/app/api/documents/[itemId]/route");
  exportRoute = await import("@/app/api/documents/export/route");
  importRoute = await import("@/app/api/documents/import/route");
  listRoute = await import("@/app/api/documents/route");
  const db = await import("@/lib/db/client");
  closeDatabase = db.closeDatabase;
  // Opened here, as a server does before its first request: PGlite's first open can outlast a test's timeout.
  await db.getDatabase();
  alice = await signedInCookie(`alice-${randomUUID()}`, ORIGIN);
  bob = await signedInCookie(`bob-${randomUUID()}`, ORIGIN);
});

afterAll(async () => {
  await closeDatabase();
  await rm(dir, { recursive: true, force: true });
});

describe("the document-record routes", () => {
  it("answer 401 without a session and 403 to another site, before touching the database", async () => {
    const itemId = randomUUID();
    const anonymous = await report(undefined, itemId, [created()]);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("UNAUTHENTICATED");
    expect((await report(alice, itemId, [created()], "https://evil.example")).status).toBe(403);
    expect((await exportRoute.GET(request("/api/documents/export?format=json"), {})).status).toBe(401);
  });

  it("record the browser's reports once, with the device, and give another user a 404", async () => {
    const itemId = randomUUID();
    const events = [created(), { id: randomUUID(), type: "uploaded", at: new Date().toISOString(), bytes: 4096, md5: "0cc175b9c0f1b6a831c399e269772661", mode: "single", durationMs: 120 }];
    const first = await report(alice, itemId, events);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ recorded: 2 });
    expect(await (await report(alice, itemId, events)).json()).toEqual({ recorded: 0 });

    const bobs = await report(bob, itemId, [{ id: randomUUID(), type: "failed", at: new Date().toISOString(), errorCode: "UPLOAD_FORBIDDEN" }]);
    expect(bobs.status).toBe(404);
    expect((await bobs.json()).error.code).toBe("DOCUMENT_NOT_FOUND");

    const json = await (await exportRoute.GET(request("/api/documents/export?format=json", { cookie: alice }), {})).json();
    const document = json.documents.find((d: { itemId: string }) => d.itemId === itemId);
    expect(document).toMatchObject({ status: "uploaded", size: 4096, md5: "0cc175b9c0f1b6a831c399e269772661", removedAt: null });
    expect(json.events.filter((e: { itemId: string }) => e.itemId === itemId).map((e: { type: string; device: string }) => [e.type, e.device])).toEqual([
      ["created", "Chrome 131 on Mac OS 10.15.7"],
      ["uploaded", "Chrome 131 on Mac OS 10.15.7"],
    ]);
  });

  it("refuse every field that could carry a SAS URL or a token, and events only the server writes", async () => {
    const itemId = randomUUID();
    const refused = [
      [created({ sas: "sv=2024-11-04&sig=abc" })],
      [created({ uploadendpoint: "https://acct.blob.core.windows.net/c/b?sv=2024-11-04&sig=abc" })],
      [created(), { id: randomUUID(), type: "failed", at: new Date().toISOString(), errorCode: "see https://x/?sig=1" }],
      [created(), { id: randomUUID(), type: "removed", at: new Date().toISOString() }],
      Array.from({ length: 51 }, () => created()),
    ];
    for (const events of refused) {
      const res = await report(alice, itemId, events);
      expect(res.status, JSON.stringify(events).slice(0, 120)).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_FAILED");
    }
    const json = await (await exportRoute.GET(request("/api/documents/export?format=json", { cookie: alice }), {})).json();
    expect(json.documents.some((d: { itemId: string }) => d.itemId === itemId)).toBe(false);
  });

  it("record every document the service accepted: a name that merely contains sig=, a negative subdocid, a credential redacted", async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ name: "Contract sig=final.pdf" }, { name: "Contract sig=final.pdf" }],
      [{ subdocid: -1 }, { subdocid: -1 }],
      [{ subdocid: -2_147_483_648, name: "Minimum" }, { subdocid: -2_147_483_648, name: "Minimum" }],
      [
        { name: "https://acct.blob.core.windows.net/c/b?sv=2024-11-04&se=2026&sig=abc%3D (copy).pdf" },
        { name: "https://acct.blob.core.windows.net/c/b?[redacted] (copy).pdf" },
      ],
      [{ doctype: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln" }, { doctype: "[redacted]" }],
      [{ container: "c?sig=1&sv=2" }, { container: "c?[redacted]" }],
    ];
    for (const [overrides, expected] of cases) {
      const itemId = randomUUID();
      const res = await report(alice, itemId, [created(overrides)]);
      expect(res.status, JSON.stringify(overrides)).toBe(200);
      expect(await listed(itemId)).toMatchObject(expected);
    }
    const entry = { doctype: "contract", itemId: randomUUID(), fileId: randomUUID(), subdocid: -7, size: 1, md5Hex: null, uploadedAt: "2026-11-20T10:00:00.000Z" };
    const imported = await importRoute.POST(request("/api/documents/import", { method: "POST", cookie: alice, body: { documents: [{ ...entry, name: "Offer sig=v2.pdf" }] } }), {});
    expect(await imported.json()).toEqual({ imported: 1 });
    expect(await listed(entry.itemId)).toMatchObject({ name: "Offer sig=v2.pdf", subdocid: -7 });
    // The service's own bound (PostgreSQL's integer) is the record's: one past it is refused by both.
    expect((await report(alice, randomUUID(), [created({ subdocid: 2_147_483_648 })])).status).toBe(400);
  });

  it("answer 400 naming the field for control characters, times outside PostgreSQL's range and JSON that is not an object (create included)", async () => {
    const itemId = randomUUID();
    const at = (iso: string) => ({ id: randomUUID(), type: "failed", at: iso, errorCode: "UPLOAD_STALLED" });
    const cases: [unknown, string][] = [
      [{ events: [created({ name: "Lease\u0000.pdf" })] }, "events.0.name"],
      [{ events: [created({ doctype: "con\ttract" })] }, "events.0.doctype"],
      [{ events: [created({ at: "0000-01-01T00:00:00Z" })] }, "events.0.at"],
      [{ events: [created(), at("1000-01-01T00:00:00+01:00")] }, "events.1.at"],
      // Years 1–99 are PostgreSQL's, but read back as 19xx/20xx: 0001-02-29 became an invalid 2001-02-29 and broke the list.
      [{ events: [created(), at("0001-02-28T00:00:00Z")] }, "events.1.at"],
      [{ events: [created(), at("9999-12-31T23:30:00-01:00")] }, "events.1.at"],
      [[], "body"],
      ["x", "body"],
      [null, "body"],
      [1, "body"],
    ];
    for (const [body, field] of cases) {
      const res = await eventsRoute.POST(request(`/api/documents/${itemId}/events`, { method: "POST", cookie: alice, body }), params(itemId));
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe("VALIDATION_FAILED");
      expect(Object.keys(error.fields), JSON.stringify(body).slice(0, 80)).toEqual([field]);
    }
    const entry = { name: "Old", doctype: "contract", itemId: randomUUID(), fileId: randomUUID(), subdocid: 0, size: 1, md5Hex: null, uploadedAt: "0000-06-01T00:00:00Z" };
    for (const [body, field] of [[{ documents: [entry] }, "documents.0.uploadedAt"], [{ documents: [{ ...entry, uploadedAt: "2026-01-01T00:00:00Z", name: "\u0000ld" }] }, "documents.0.name"], [[entry], "body"]] as const) {
      const res = await importRoute.POST(request("/api/documents/import", { method: "POST", cookie: alice, body }), {});
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).error.fields)).toEqual([field]);
    }
    // The create route too: its schema's own root-level error has no path, and used to be named `_`.
    for (const body of [[], "x", null, 1]) {
      const res = await listRoute.POST(request("/api/documents", { method: "POST", cookie: alice, body }), {});
      expect(res.status, JSON.stringify(body)).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe("VALIDATION_FAILED");
      expect(Object.keys(error.fields), JSON.stringify(body)).toEqual(["body"]);
    }
    // Whatever is wrong, the 400 names where: the path's id, an unknown key (an empty one too), a body that is not
    // JSON, or not declared as JSON.
    const fieldsOf = async (res: Response) => {
      expect(res.status).toBe(400);
      return Object.keys((await res.json()).error.fields);
    };
    expect(await fieldsOf(await report(alice, "not-a-guid", [created()]))).toEqual(["itemId"]);
    expect(await fieldsOf(await listRoute.GET(request("/api/documents?colour=red", { cookie: alice }), {}))).toEqual(["colour"]);
    expect(await fieldsOf(await listRoute.GET(request("/api/documents?=x", { cookie: alice }), {}))).toEqual(['""']);
    const raw = (body: string, contentType: string) =>
      eventsRoute.POST(
        new NextRequest(`${ORIGIN}/api/documents/${itemId}/events`, { method: "POST", headers: { cookie: alice, origin: ORIGIN, "content-type": contentType }, body }),
        params(itemId),
      );
    // Keys named like Object's own are fields like any other.
    expect(await fieldsOf(await listRoute.GET(request("/api/documents?constructor=x", { cookie: alice }), {}))).toEqual(["constructor"]);
    expect(await fieldsOf(await raw('{"events":[],"__proto__":{"x":1}}', "application/json"))).toEqual(["events", "__proto__"]);
    expect(await fieldsOf(await raw("{not json", "application/json"))).toEqual(["body"]);
    expect(await fieldsOf(await raw(JSON.stringify({ events: [] }), "text/plain"))).toEqual(["body"]);
    // The last second before the year 10000 and the first of the year 1000 are kept, and read back as they were.
    expect((await report(alice, itemId, [created({ at: "1000-01-01T00:00:00Z" }), at("9999-12-31T23:59:59.999Z")])).status).toBe(200);
    expect(await listed(itemId)).toMatchObject({ createdAt: "1000-01-01T00:00:00.000Z" });
  });

  it("answer reports for a removed document with 404, and take a 16 KiB body but not one byte more", async () => {
    const itemId = randomUUID();
    expect((await report(alice, itemId, [created()])).status).toBe(200);
    expect((await documentRoute.DELETE(request(`/api/documents/${itemId}`, { method: "DELETE", cookie: alice }), params(itemId))).status).toBe(204);
    const late = await report(alice, itemId, [{ id: randomUUID(), type: "uploaded", at: new Date().toISOString(), bytes: 1 }]);
    expect(late.status).toBe(404);
    expect((await late.json()).error.code).toBe("DOCUMENT_NOT_FOUND");
    // Its "created" re-sent does not bring it back either.
    expect((await report(alice, itemId, [created()])).status).toBe(404);
    expect(await listed(itemId)).toBeUndefined();

    const other = randomUUID();
    const json = JSON.stringify({ events: [created()] });
    // JSON may end in whitespace: the same valid report, padded to the size wanted.
    const sized = (bytes: number) => json + " ".repeat(bytes - json.length);
    const post = (text: string) =>
      eventsRoute.POST(
        new NextRequest(`${ORIGIN}/api/documents/${other}/events`, { method: "POST", headers: { cookie: alice, origin: ORIGIN, "content-type": "application/json" }, body: text }),
        params(other),
      );
    const atLimit = sized(16 * 1024);
    expect(new TextEncoder().encode(atLimit).byteLength).toBe(16 * 1024);
    expect((await post(atLimit)).status).toBe(200);
    const over = await post(sized(16 * 1024 + 1));
    expect(over.status).toBe(413);
    expect((await over.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("remove a document from the list (204, then 404), not another user's", async () => {
    const itemId = randomUUID();
    await report(alice, itemId, [created({ name: "To remove" })]);
    const remove = (cookie: string) => documentRoute.DELETE(request(`/api/documents/${itemId}`, { method: "DELETE", cookie }), params(itemId));
    expect((await remove(bob)).status).toBe(404);
    expect((await remove(alice)).status).toBe(204);
    expect((await remove(alice)).status).toBe(404);
    const csv = await (await exportRoute.GET(request("/api/documents/export?format=csv", { cookie: alice }), {})).text();
    expect(csv.split("\r\n").filter((line) => line.startsWith(itemId)).map((line) => line.split(",")[10])).toEqual(["created", "removed"]);
  });

  it("export CSV and JSON as attachments, with spreadsheet formulas defused", async () => {
    const itemId = randomUUID();
    await report(alice, itemId, [created({ name: "=HYPERLINK(\"x\")" })]);
    const res = await exportRoute.GET(request("/api/documents/export?format=csv", { cookie: alice }), {});
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="documents-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = await res.text();
    expect(csv.split("\r\n")[0]).toBe("item_id,file_id,subdocid,name,doctype,status,size,md5,created_at,removed_at,event_type,event_at,device,request_id,details");
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    const json = await exportRoute.GET(request("/api/documents/export?format=json", { cookie: alice }), {});
    expect(json.headers.get("content-disposition")).toMatch(/\.json"$/);
    await json.text();
    expect((await exportRoute.GET(request("/api/documents/export?format=xml", { cookie: alice }), {})).status).toBe(400);
  });

  it("run two of a user's exports at once and queue a third until one of them ends, while another user's starts at once", async () => {
    const user = await signedInCookie(`carol-${randomUUID()}`, ORIGIN);
    await report(user, randomUUID(), [created()]);
    const get = (cookie: string, format = "json") => exportRoute.GET(request(`/api/documents/export?format=${format}`, { cookie }), {});
    const [first, second] = await Promise.all([get(user), get(user, "csv")]);
    let thirdStarted = false;
    const third = get(user).then((res) => {
      thirdStarted = true;
      return res;
    });
    // Bob's export is not in Carol's line.
    const bobs = await get(bob);
    expect(bobs.status).toBe(200);
    await bobs.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(thirdStarted).toBe(false);
    // The first download ends: the third starts, and is complete.
    expect(JSON.parse(await first.text()).documents).toHaveLength(1);
    const json = JSON.parse(await (await third).text());
    expect(json.documents).toHaveLength(1);
    await second.body?.cancel();
  });

  it("answer an export the user's line refused after its wait (tests/unit/export-slots.test.ts) with 429 and Retry-After", async () => {
    const { exportSlots } = await import("@/lib/documents/export-slots");
    const acquire = vi.spyOn(exportSlots, "acquire").mockResolvedValueOnce("busy");
    try {
      const answer = await exportRoute.GET(request("/api/documents/export?format=csv", { cookie: alice }), {});
      expect(answer.status).toBe(429);
      expect(answer.headers.get("retry-after")).toBe("10");
      expect(await answer.json()).toMatchObject({ error: { code: "RATE_LIMITED", limit: "documents-export-running", retryAfterSeconds: 10 } });
    } finally {
      acquire.mockRestore();
    }
    // The next one is not refused.
    const next = await exportRoute.GET(request("/api/documents/export?format=json", { cookie: alice }), {});
    expect(next.status).toBe(200);
    await next.text();
  });

  it("answer a report that would take a document past 1,000 events with 409 EVENT_LIMIT_REACHED, naming the limit", async () => {
    const itemId = randomUUID();
    expect((await report(alice, itemId, [created()])).status).toBe(200);
    const resumed = () => ({ id: randomUUID(), type: "resumed", at: new Date().toISOString(), mode: "blocks", bytes: 4096 });
    for (let left = 999; left > 0; left -= 50) expect((await report(alice, itemId, Array.from({ length: Math.min(50, left) }, resumed))).status).toBe(200);
    const full = await report(alice, itemId, [resumed()]);
    expect(full.status).toBe(409);
    expect(await full.json()).toEqual({
      error: { code: "EVENT_LIMIT_REACHED", message: "This document's history is full: it keeps at most 1000 events.", fields: { events: ["a document keeps at most 1000 events"] } },
    });
  });

  it("start the CSV with a UTF-8 byte-order mark, so a spreadsheet reads its names as UTF-8", async () => {
    await report(alice, randomUUID(), [created({ name: "契約書-見本.pdf" })]);
    const bytes = new Uint8Array(await (await exportRoute.GET(request("/api/documents/export?format=csv", { cookie: alice }), {})).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)).toContain("契約書-見本.pdf");
    // JSON has none: JSON.parse refuses one.
    const json = new Uint8Array(await (await exportRoute.GET(request("/api/documents/export?format=json", { cookie: alice }), {})).arrayBuffer());
    expect(json[0]).toBe("{".charCodeAt(0));
  });

  it("name both files by the user's own date in the zone their browser reported, not UTC's", async () => {
    // 01:00 UTC on the 27th is 20:00 on the 26th in New York.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-27T01:00:00Z") });
    try {
      // Each download is abandoned once its headers are read: an export holds one of the user's slots until then.
      const get = async (format: string, cookie: string) => {
        const res = await exportRoute.GET(request(`/api/documents/export?format=${format}`, { cookie }), {});
        await res.body?.cancel();
        return res;
      };
      for (const format of ["csv", "json"]) {
        expect((await get(format, `${alice}; tz=America%2FNew_York`)).headers.get("content-disposition")).toBe(`attachment; filename="documents-2026-11-26.${format}"`);
        expect((await get(format, `${alice}; tz=Asia%2FTokyo`)).headers.get("content-disposition")).toBe(`attachment; filename="documents-2026-11-27.${format}"`);
        // No zone reported yet, or one this runtime does not know: UTC, as the pages show.
        expect((await get(format, `${alice}; tz=Mars%2FOlympus`)).headers.get("content-disposition")).toBe(`attachment; filename="documents-2026-11-27.${format}"`);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("import the browser's old list once", async () => {
    const entry = (name: string) => ({
      name,
      doctype: "contract",
      itemId: randomUUID(),
      fileId: randomUUID(),
      subdocid: 0,
      size: 1234,
      md5Hex: null,
      uploadedAt: "2026-11-20T10:00:00.000Z",
    });
    const documents = [entry("Old one"), entry("Older one")];
    const post = (body: unknown) => importRoute.POST(request("/api/documents/import", { method: "POST", cookie: alice, body }), {});
    expect(await (await post({ documents })).json()).toEqual({ imported: 2 });
    expect(await (await post({ documents })).json()).toEqual({ imported: 0 });
    expect((await post({ documents: [{ ...entry("With endpoint"), uploadendpoint: "https://acct.blob.core.windows.net/c/b?sig=x" }] })).status).toBe(400);
    expect((await post({ documents: Array.from({ length: 21 }, (_, i) => entry(`Entry ${i}`)) })).status).toBe(400);
  });

  it("list the user's documents a page at a time, newest first, filtered, never another user's", async () => {
    const carol = await signedInCookie(`carol-${randomUUID()}`, ORIGIN);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const itemId = randomUUID();
      ids.push(itemId);
      await report(carol, itemId, [created({ name: `Carol ${i}`, at: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString() })]);
    }
    const list = (query: string, cookie: string | undefined = carol) => listRoute.GET(request(`/api/documents${query}`, { cookie }), {});
    const first = await (await list("?limit=2")).json();
    expect(first.documents.map((d: { name: string }) => d.name)).toEqual(["Carol 2", "Carol 1"]);
    const second = await (await list(`?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second).toEqual({ documents: [expect.objectContaining({ itemId: ids[0], name: "Carol 0", status: "created" })], nextCursor: null });
    expect((await (await list("?q=carol%201")).json()).documents.map((d: { itemId: string }) => d.itemId)).toEqual([ids[1]]);
    expect((await (await list("?limit=50", alice)).json()).documents.some((d: { name: string }) => d.name.startsWith("Carol"))).toBe(false);
    expect((await list("?status=lost")).status).toBe(400);
    expect((await listRoute.GET(request("/api/documents"), {})).status).toBe(401);
  });

  it("answer a list cursor outside PostgreSQL's range, malformed, or a filter with a control character with 400 naming it", async () => {
    const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const cases: [string, string][] = [
      [`cursor=${cursorOf(["0000-01-01T00:00:00.000Z", randomUUID()])}`, "cursor"],
      [`cursor=${cursorOf(["+010000-01-01T00:00:00.000Z", randomUUID()])}`, "cursor"],
      [`cursor=${cursorOf(["2026-01-01T00:00:00.000Z", "x\u0000"])}`, "cursor"],
      ["cursor=%00", "cursor"],
      ["cursor=bm90IGpzb24", "cursor"],
      ["q=a%00b", "q"],
      ["doctype=%07", "doctype"],
    ];
    for (const [query, field] of cases) {
      const res = await listRoute.GET(request(`/api/documents?${query}`, { cookie: alice }), {});
      expect(res.status, query).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe("VALIDATION_FAILED");
      expect(Object.keys(error.fields), query).toEqual([field]);
    }
  });

  it("give the /documents page the first page, flagged, for a cursor the database cannot take", async () => {
    const { loadDocumentListPage } = await import("@/lib/documents/document-list-page");
    const { readDocumentListParams } = await import("@/lib/documents/document-list-params");
    const { userKeyFor } = await import("@/lib/auth/user-key");
    const { getConfig } = await import("@/lib/env");
    const subject = `dave-${randomUUID()}`;
    const dave = await signedInCookie(subject, ORIGIN);
    const itemId = randomUUID();
    await report(dave, itemId, [created({ name: "Dave's" })]);
    const userKey = userKeyFor(getConfig().issuer, subject);
    const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    for (const cursor of [cursorOf(["0000-01-01T00:00:00.000Z", randomUUID()]), cursorOf(["+010000-01-01T00:00:00.000Z", randomUUID()]), "not'base64"]) {
      const loaded = await loadDocumentListPage(userKey, readDocumentListParams({ cursor }));
      expect(loaded, cursor).toEqual({ page: { documents: [expect.objectContaining({ itemId, name: "Dave's" })], nextCursor: null }, fellBack: true });
    }
    expect(await loadDocumentListPage(userKey, readDocumentListParams({}))).toMatchObject({ fellBack: false });
  });
});
