import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, MIN_RATE_LIMIT_WAIT_MS, retryAfterSeconds } from "@/lib/api-client";
import { REPORTS_BODY_MAX_BYTES, type DocumentReport } from "@/lib/documents/document-report";
import { outcomeOf, postReports } from "@/lib/documents/report-delivery";
import {
  OUTBOX_MAX_AGE_MS,
  OUTBOX_PARALLEL_DOCUMENTS,
  OUTBOX_REQUEST_TIMEOUT_MS,
  OUTBOX_RETRY_DELAYS_MS,
  ReportOutbox,
  type OutboxEntry,
  type OutboxStore,
  type SendOutcome,
} from "@/lib/documents/report-outbox";

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

  it("drops and counts reports the app refused for good (a removed document's 404), keeps a 'retry' one, and goes on to the next document", async () => {
    const store = memoryStore();
    const hold = { setTimer: () => 0, clearTimer: () => {} };
    const maker = new ReportOutbox("alice", store, async () => "retry", hold);
    for (const item of ["item-1", "item-2", "item-3"]) maker.report(item, { type: "upload_started", mode: "single", bytes: 1 });
    await settle();
    await maker.flush();
    const dropped: number[] = [];
    const { send, calls } = scriptedSend("refused", "retry", "delivered");
    const outbox = new ReportOutbox("alice", store, send, { ...hold, onDropped: (count) => dropped.push(count) });
    await outbox.flush();
    expect(calls.map((c) => c.itemId)).toEqual(["item-1", "item-2", "item-3"]);
    expect([...store.entries.values()].map((e) => e.itemId)).toEqual(["item-2"]);
    expect(dropped).toEqual([1]);
    expect(outbox.dropped).toBe(1);
  });

  it("gives each document its own schedule: one whose reports fail for good (5xx, or a send that throws) never delays a later document's", async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const calls: string[] = [];
    const send = vi.fn(async (itemId: string): Promise<SendOutcome> => {
      calls.push(itemId);
      if (itemId === "broken") return "retry"; // the database keeps answering 503 for this one
      if (itemId === "buggy") throw new TypeError("a bug in sending"); // never "delivered" either
      return "delivered";
    });
    const outbox = new ReportOutbox("alice", store, send, { onDropped: () => {} });
    outbox.report("broken", { type: "upload_started", mode: "single", bytes: 1 });
    outbox.report("buggy", { type: "upload_started", mode: "single", bytes: 1 });
    await vi.advanceTimersByTimeAsync(0);
    // A later document, while both wait for their next try: delivered at once, in the next round.
    outbox.report("later", { type: "uploaded", mode: "single", bytes: 1, durationMs: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.filter((id) => id === "later")).toEqual(["later"]);
    expect((await outbox.waiting()).map((e) => e.itemId).sort()).toEqual(["broken", "buggy"]);
    // The failing ones are tried again on their own schedule (2 s, 5 s, 15 s …), not on every round.
    const triesOf = (id: string) => calls.filter((c) => c === id).length;
    expect([triesOf("broken"), triesOf("buggy")]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(OUTBOX_RETRY_DELAYS_MS[0]);
    expect([triesOf("broken"), triesOf("buggy")]).toEqual([2, 2]);
    await vi.advanceTimersByTimeAsync(OUTBOX_RETRY_DELAYS_MS[1]);
    expect([triesOf("broken"), triesOf("buggy")]).toEqual([3, 3]);
    // An hour on: still failing, still kept; another new document goes through at once.
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    outbox.report("much-later", { type: "upload_started", mode: "blocks", bytes: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.filter((id) => id === "much-later")).toEqual(["much-later"]);
    expect(triesOf("broken")).toBeGreaterThan(50);
    expect((await outbox.waiting()).map((e) => e.itemId).sort()).toEqual(["broken", "buggy"]);
    // Only the failing documents' reports are left.
    expect([...store.entries.values()].map((e) => e.itemId).sort()).toEqual(["broken", "buggy"]);
  });

  it("delivers another document while one document's request never answers, and gives that request up after the timeout", async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const calls: string[] = [];
    const signals: AbortSignal[] = [];
    const send = vi.fn((itemId: string, _reports: DocumentReport[], signal: AbortSignal): Promise<SendOutcome> => {
      calls.push(itemId);
      // The first request for "hung" never answers (a proxy holding it open); every later one is delivered.
      if (itemId === "hung" && signals.length === 0) {
        signals.push(signal);
        return new Promise<SendOutcome>(() => {});
      }
      return Promise.resolve("delivered");
    });
    const outbox = new ReportOutbox("alice", store, send);
    outbox.report("hung", { type: "upload_started", mode: "single", bytes: 1 });
    await vi.advanceTimersByTimeAsync(0);
    // Made while the hung request is open: sent at once, and delivered.
    outbox.report("other", { type: "uploaded", mode: "single", bytes: 1, durationMs: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(["hung", "other"]);
    expect((await outbox.waiting()).map((e) => e.itemId)).toEqual(["hung"]);
    // The hung request is given up (aborted) at the timeout, not before, and tried again on its schedule.
    await vi.advanceTimersByTimeAsync(OUTBOX_REQUEST_TIMEOUT_MS - 1);
    expect(signals[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(OUTBOX_RETRY_DELAYS_MS[0]);
    expect(calls).toEqual(["hung", "other", "hung"]);
    expect(store.entries.size).toBe(0);
  });

  it(`sends at most ${OUTBOX_PARALLEL_DOCUMENTS} documents at once, the next as soon as one is answered`, async () => {
    const answers = new Map<string, (outcome: SendOutcome) => void>();
    let answerAtOnce = false;
    const send = vi.fn((itemId: string) => (answerAtOnce ? Promise.resolve<SendOutcome>("delivered") : new Promise<SendOutcome>((resolve) => answers.set(itemId, resolve))));
    const outbox = new ReportOutbox("alice", memoryStore(), send, { setTimer: () => 0, clearTimer: () => {} });
    const items = Array.from({ length: OUTBOX_PARALLEL_DOCUMENTS + 2 }, (_, i) => `item-${i}`);
    for (const item of items) outbox.report(item, { type: "upload_started", mode: "single", bytes: 1 });
    await settle();
    expect(send.mock.calls.map(([itemId]) => itemId)).toEqual(items.slice(0, OUTBOX_PARALLEL_DOCUMENTS));
    answers.get("item-1")!("delivered");
    await settle();
    expect(send.mock.calls.map(([itemId]) => itemId)).toEqual(items.slice(0, OUTBOX_PARALLEL_DOCUMENTS + 1));
    answerAtOnce = true;
    for (const resolve of answers.values()) resolve("delivered");
    await outbox.flush();
    expect(send.mock.calls.map(([itemId]) => itemId).sort()).toEqual(items);
    expect(await outbox.waiting()).toEqual([]);
  });

  it("waits a 429's Retry-After before sending anything more, flush included, then delivers every report, none lost", async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const calls: string[] = [];
    let limited = true;
    const dropped: number[] = [];
    const send = vi.fn(async (itemId: string): Promise<SendOutcome> => {
      calls.push(itemId);
      return limited ? { retryAfterMs: 10_000 } : "delivered";
    });
    const outbox = new ReportOutbox("alice", store, send, { onDropped: (count) => dropped.push(count) });
    outbox.report("item-a", { type: "upload_started", mode: "single", bytes: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(["item-a"]);
    // During the wait: a new document's report and a flush (page load, `online`) send nothing.
    outbox.report("item-b", { type: "upload_started", mode: "single", bytes: 1 });
    await vi.advanceTimersByTimeAsync(0);
    await outbox.flush();
    expect(calls).toEqual(["item-a"]);
    limited = false;
    await vi.advanceTimersByTimeAsync(10_000 - 1);
    expect(calls).toEqual(["item-a"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.sort()).toEqual(["item-a", "item-a", "item-b"]);
    expect(store.entries.size).toBe(0);
    expect(dropped).toEqual([]);
  });

  it(`waits at least ${MIN_RATE_LIMIT_WAIT_MS} ms after a 429 whose Retry-After is 0, and a 429 is no failure: the next failure waits the first delay`, async () => {
    vi.useFakeTimers();
    const outcomes: SendOutcome[] = [{ retryAfterMs: 0 }, "retry", "delivered"];
    const calls: number[] = [];
    const outbox = new ReportOutbox("alice", memoryStore(), async () => {
      calls.push(Date.now());
      return outcomes.shift()!;
    });
    const started = Date.now();
    outbox.report("item-1", { type: "upload_started", mode: "single", bytes: 1 });
    await vi.advanceTimersByTimeAsync(MIN_RATE_LIMIT_WAIT_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(OUTBOX_RETRY_DELAYS_MS[0]);
    expect(calls.map((at) => at - started)).toEqual([0, MIN_RATE_LIMIT_WAIT_MS, MIN_RATE_LIMIT_WAIT_MS + OUTBOX_RETRY_DELAYS_MS[0]]);
    expect(await outbox.waiting()).toEqual([]);
  });

  it("sends the documents that never failed first in a round", async () => {
    const store = memoryStore();
    const hold = { setTimer: () => 0, clearTimer: () => {} };
    const calls: string[] = [];
    const outbox = new ReportOutbox(
      "alice",
      store,
      async (itemId) => {
        calls.push(itemId);
        return itemId === "failing" ? "retry" : "delivered";
      },
      hold,
    );
    outbox.report("failing", { type: "upload_started", mode: "single", bytes: 1 });
    await settle();
    await outbox.flush();
    calls.length = 0;
    outbox.report("fresh", { type: "upload_started", mode: "single", bytes: 1 });
    await settle();
    await outbox.flush();
    expect(calls.slice(0, 2)).toEqual(["fresh", "failing"]);
  });

  it("keeps each request within the route's 16 KiB", async () => {
    const { send, calls } = scriptedSend();
    const store = memoryStore();
    const outbox = new ReportOutbox("alice", store, async () => "retry", { setTimer: () => 0, clearTimer: () => {} });
    // 50 reports of ~1 KiB each (the longest error code, and a long name in the created one): 3+ requests, none over the limit.
    outbox.report("item-1", { type: "created", fileId: "f", subdocid: 0, name: "契".repeat(255), doctype: "d".repeat(100), size: 1 });
    for (let i = 0; i < 49; i++) outbox.report("item-1", { type: "failed", errorCode: "E".repeat(64) + "x".repeat(600) });
    await settle();
    await new ReportOutbox("alice", store, send).flush();
    const sizes = calls.map((c) => new TextEncoder().encode(JSON.stringify({ events: c.reports })).byteLength);
    expect(calls.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(REPORTS_BODY_MAX_BYTES);
    expect(calls.flatMap((c) => c.reports).length).toBe(50);
    expect(store.entries.size).toBe(0);
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

  it("reads a 429 with Retry-After (seconds or a date) as a wait, and passes the outbox's signal to the request", async () => {
    expect(outcomeOf(new ApiError(429, "RATE_LIMITED" as never, "x", undefined, undefined, 7))).toEqual({ retryAfterMs: 7_000 });
    expect(retryAfterSeconds("120")).toBe(120);
    expect(retryAfterSeconds(new Date(Date.parse("2026-11-27T10:00:30Z")).toUTCString(), Date.parse("2026-11-27T10:00:00Z"))).toBe(30);
    expect(retryAfterSeconds("soon")).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ error: { code: "RATE_LIMITED", message: "slow down" } }), { status: 429, headers: { "retry-after": "12" } }));
    vi.stubGlobal("fetch", fetchMock);
    const controller = new AbortController();
    expect(await postReports("item-1", [], controller.signal)).toEqual({ retryAfterMs: 12_000 });
    expect((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].signal).toBe(controller.signal);
    // A proxy's 429 without JSON, with the header: the same wait.
    fetchMock.mockResolvedValueOnce(new Response("Too Many Requests", { status: 429, headers: { "retry-after": "3" } }));
    expect(await postReports("item-1", [])).toEqual({ retryAfterMs: 3_000 });
    // An aborted request (the outbox's timeout) is retried later.
    fetchMock.mockRejectedValueOnce(new DOMException("aborted", "AbortError"));
    expect(await postReports("item-1", [])).toBe("retry");
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

  it("drops the reports of a document whose trail is full (409 EVENT_LIMIT_REACHED) after one try each, never retrying them", async () => {
    const full = { error: { code: "EVENT_LIMIT_REACHED", message: "full", fields: { events: ["a document keeps at most 1000 events"] } } };
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(full), { status: 409 }));
    vi.stubGlobal("fetch", fetchMock);
    const store = memoryStore();
    const dropped: number[] = [];
    // Timers still set after the flushes: each request's give-up timer is cleared when it is answered, a retry's stays.
    const pending = new Set<object>();
    const outbox = new ReportOutbox("alice", store, postReports, {
      onDropped: (count) => dropped.push(count),
      setTimer: () => {
        const timer = {};
        pending.add(timer);
        return timer;
      },
      clearTimer: (timer) => pending.delete(timer as object),
    });
    outbox.report("item-1", { type: "resumed", mode: "blocks", bytes: 9 });
    outbox.report("item-1", { type: "uploaded", mode: "blocks", bytes: 9, durationMs: 5 });
    await outbox.flush();
    await outbox.flush();
    expect(dropped.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await outbox.waiting()).toEqual([]);
    expect(store.entries.size).toBe(0);
    // No retry is scheduled: the two reports cost at most one request each.
    expect(pending.size).toBe(0);
    expect(fetchMock.mock.calls.length).toBeLessThanOrEqual(2);
  });
});
