import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api-client";
import type { DocumentReport } from "@/lib/documents/document-report";
import { outcomeOf, postReports } from "@/lib/documents/report-delivery";
import { OUTBOX_MAX_AGE_MS, OUTBOX_RETRY_DELAYS_MS, ReportOutbox, type OutboxEntry, type OutboxStore, type SendOutcome } from "@/lib/documents/report-outbox";

/** The IndexedDB store's behaviour in memory; `broken` makes every call fail, as with no IndexedDB at all. */
function memoryStore(broken = false): OutboxStore & { entries: Map<string, OutboxEntry> } {
  const entries = new Map<string, OutboxEntry>();
  const guard = () => {
    if (broken) throw new Error("no IndexedDB");
  };
  return {
    entries,
    put: async (entry) => {
      guard();
      entries.set(entry.id, structuredClone(entry));
    },
    list: async (userKey) => {
      guard();
      return [...entries.values()].filter((entry) => entry.userKey === userKey);
    },
    remove: async (ids) => {
      guard();
      for (const id of ids) entries.delete(id);
    },
  };
}

/** A send whose answers the test scripts; every call is recorded. */
function scriptedSend(...outcomes: SendOutcome[]) {
  const calls: { itemId: string; reports: DocumentReport[] }[] = [];
  const send = vi.fn(async (itemId: string, reports: DocumentReport[]) => {
    calls.push({ itemId, reports });
    return outcomes.shift() ?? "delivered";
  });
  return { send, calls };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => vi.useRealTimers());
afterEach(() => vi.useRealTimers());

describe("ReportOutbox", () => {
  it("returns from report() before anything is stored or sent, then delivers and forgets the report", async () => {
    const store = memoryStore();
    let release!: () => void;
    const send = vi.fn(() => new Promise<SendOutcome>((resolve) => (release = () => resolve("delivered"))));
    const outbox = new ReportOutbox("alice", store, send);
    outbox.report("item-1", { type: "upload_started", mode: "single", bytes: 1 });
    expect(send).not.toHaveBeenCalled();
    await settle();
    // Kept in the store while the request is on its way: a page closed now still has it.
    expect(send).toHaveBeenCalledTimes(1);
    expect(store.entries.size).toBe(1);
    release();
    await outbox.flush();
    expect(store.entries.size).toBe(0);
    expect(await outbox.waiting()).toEqual([]);
  });

  it("stamps each report with its own UUID and time, and sends one document's reports in order in one request", async () => {
    const { send, calls } = scriptedSend();
    const outbox = new ReportOutbox("alice", memoryStore(), send, { now: () => Date.parse("2026-11-26T10:00:00Z") });
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    send.mockImplementationOnce(async (itemId, reports) => {
      calls.push({ itemId, reports });
      await blocked;
      return "delivered";
    });
    outbox.report("item-0", { type: "upload_started", mode: "single", bytes: 1 });
    await settle();
    // While that request runs, three more reports: they go together in the next one, in the order made.
    outbox.report("item-1", { type: "upload_started", mode: "blocks", bytes: 1 });
    outbox.report("item-1", { type: "resumed", mode: "blocks", bytes: 1 });
    outbox.report("item-1", { type: "uploaded", mode: "blocks", bytes: 10, durationMs: 5 });
    await settle();
    release();
    await outbox.flush();
    expect(calls.map((c) => [c.itemId, c.reports.map((r) => r.type)])).toEqual([
      ["item-0", ["upload_started"]],
      ["item-1", ["upload_started", "resumed", "uploaded"]],
    ]);
    const ids = calls.flatMap((c) => c.reports.map((r) => r.id));
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect(calls[0]!.reports[0]!.at).toBe("2026-11-26T10:00:00.000Z");
  });

  it("keeps what the app did not take and sends it again after 2 s, 5 s, 15 s… with the same ids, once", async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const { send, calls } = scriptedSend("retry", "retry", "delivered");
    const outbox = new ReportOutbox("alice", store, send);
    outbox.report("item-1", { type: "failed", errorCode: "UPLOAD_STALLED" });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(OUTBOX_RETRY_DELAYS_MS[0] - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(OUTBOX_RETRY_DELAYS_MS[1]);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.reports[0]!.id)).size).toBe(1);
    expect(store.entries.size).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(3);
  });

  it("a later page (page load, `online`) delivers what an earlier one left in the store, for its own user only", async () => {
    const store = memoryStore();
    const first = new ReportOutbox("alice", store, scriptedSend("retry").send, { setTimer: () => 0, clearTimer: () => {} });
    first.report("item-a", { type: "uploaded", mode: "single", bytes: 1, durationMs: 1 });
    new ReportOutbox("bob", store, scriptedSend("retry").send, { setTimer: () => 0, clearTimer: () => {} }).report("item-b", {
      type: "failed",
      errorCode: "UPLOAD_REJECTED",
    });
    await settle();
    expect(store.entries.size).toBe(2);

    const { send, calls } = scriptedSend();
    await new ReportOutbox("alice", store, send).flush();
    expect(calls.map((c) => c.itemId)).toEqual(["item-a"]);
    expect([...store.entries.values()].map((e) => e.userKey)).toEqual(["bob"]);
  });

  it("drops reports the app refused for good, and stops at the first 'retry' keeping the rest", async () => {
    const store = memoryStore();
    const hold = { setTimer: () => 0, clearTimer: () => {} };
    const maker = new ReportOutbox("alice", store, scriptedSend("retry", "retry", "retry").send, hold);
    for (const item of ["item-1", "item-2", "item-3"]) maker.report(item, { type: "upload_started", mode: "single", bytes: 1 });
    await settle();
    await maker.flush();
    const { send, calls } = scriptedSend("refused", "retry");
    await new ReportOutbox("alice", store, send, hold).flush();
    expect(calls.map((c) => c.itemId)).toEqual(["item-1", "item-2"]);
    expect([...store.entries.values()].map((e) => e.itemId).sort()).toEqual(["item-2", "item-3"]);
  });

  it("sends at most 50 reports per request", async () => {
    const { send, calls } = scriptedSend();
    const store = memoryStore();
    const outbox = new ReportOutbox("alice", store, scriptedSend(...Array<SendOutcome>(200).fill("retry")).send, { setTimer: () => 0, clearTimer: () => {} });
    for (let i = 0; i < 120; i++) outbox.report("item-1", { type: "resumed", mode: "blocks", bytes: 1 });
    await settle();
    await new ReportOutbox("alice", store, send).flush();
    expect(calls.map((c) => c.reports.length)).toEqual([50, 50, 20]);
    expect(store.entries.size).toBe(0);
  });

  it("forgets reports older than 30 days without sending them", async () => {
    const store = memoryStore();
    let now = Date.parse("2026-01-01T00:00:00Z");
    const hold = { setTimer: () => 0, clearTimer: () => {}, now: () => now };
    new ReportOutbox("alice", store, scriptedSend("retry").send, hold).report("item-old", { type: "upload_started", mode: "single", bytes: 1 });
    await settle();
    now += OUTBOX_MAX_AGE_MS + 1;
    const { send, calls } = scriptedSend();
    await new ReportOutbox("alice", store, send, hold).flush();
    expect(calls).toEqual([]);
    expect(store.entries.size).toBe(0);
  });

  it("still delivers from memory when the store is unavailable (no IndexedDB)", async () => {
    const { send, calls } = scriptedSend();
    const outbox = new ReportOutbox("alice", memoryStore(true), send);
    outbox.report("item-1", { type: "upload_started", mode: "single", bytes: 1 });
    await settle();
    await outbox.flush();
    expect(calls.map((c) => c.itemId)).toEqual(["item-1"]);
    expect(await outbox.waiting()).toEqual([]);
  });
});

describe("report delivery over HTTP", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("maps the events route's answers: unreachable, 5xx (database down), a 429 (a proxy's, not JSON) and signed out are retried; 400/403/404 are not", () => {
    expect(outcomeOf(new ApiError(0, "NETWORK", "x"))).toBe("retry");
    expect(outcomeOf(new ApiError(503, "DATABASE_UNAVAILABLE", "x"))).toBe("retry");
    expect(outcomeOf(new ApiError(429, "INTERNAL", "x"))).toBe("retry");
    expect(outcomeOf(new ApiError(401, "UNAUTHENTICATED", "x"))).toBe("retry");
    expect(outcomeOf(new ApiError(400, "VALIDATION_FAILED", "x"))).toBe("refused");
    expect(outcomeOf(new ApiError(404, "DOCUMENT_NOT_FOUND", "x"))).toBe("refused");
    expect(outcomeOf(new ApiError(403, "CROSS_SITE_REQUEST", "x"))).toBe("refused");
    expect(outcomeOf(new TypeError("boom"))).toBe("retry");
  });

  it("POSTs { events } as JSON to the document's events route", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ recorded: 1 }), { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    const report: DocumentReport = { id: "6f1c0c1e-0000-4000-8000-000000000001", at: "2026-11-26T10:00:00.000Z", type: "failed", errorCode: "UPLOAD_STALLED" };
    expect(await postReports("item/1", [report])).toBe("delivered");
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/documents/item%2F1/events");
    expect(init.method).toBe("POST");
    expect(JSON.parse(init.body as string)).toEqual({ events: [report] });

    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ error: { code: "DATABASE_UNAVAILABLE", message: "down" } }), { status: 503 }));
    expect(await postReports("item-1", [report])).toBe("retry");
  });
});
