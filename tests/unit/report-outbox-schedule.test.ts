import { describe, expect, it } from "vitest";
import { MIN_RATE_LIMIT_WAIT_MS } from "@/lib/api-client";
import {
  delivered,
  dueDocuments,
  EMPTY_SCHEDULE,
  failed,
  held,
  listed,
  nextWake,
  OUTBOX_PARALLEL_DOCUMENTS,
  OUTBOX_RETRY_DELAYS_MS,
  rateLimited,
  reported,
  started,
  type DocumentState,
  type Schedule,
} from "@/lib/documents/report-outbox-schedule";

// Each move of the outbox's schedule on its own; tests/unit/report-outbox.test.ts drives them through the outbox.

const NOW = 1_000_000;
const scheduleOf = (documents: Record<string, DocumentState>, pausedUntil = 0): Schedule => ({ documents: new Map(Object.entries(documents)), pausedUntil });
const stateOf = (schedule: Schedule, itemId: string) => schedule.documents.get(itemId);
const fresh: DocumentState = { status: "waiting", failures: 0, dueAt: 0 };

describe("the report outbox's schedule", () => {
  describe("listed", () => {
    it("adds new documents due at once, keeps known ones as they are, in the listing's order", () => {
      const before = scheduleOf({ b: { status: "waiting", failures: 2, dueAt: NOW + 5 } });
      const after = listed(before, ["a", "b"], false);
      expect([...after.documents]).toEqual([
        ["a", fresh],
        ["b", { status: "waiting", failures: 2, dueAt: NOW + 5 }],
      ]);
    });

    it("drops a document with nothing left unless its reports are on their way", () => {
      const before = scheduleOf({ gone: { status: "waiting", failures: 1, dueAt: NOW }, sending: { status: "sending", failures: 0, flushed: true } });
      const after = listed(before, [], false);
      expect([...after.documents]).toEqual([["sending", { status: "sending", failures: 0, flushed: false }]]);
    });

    it("with flush, marks every listed document flushed, one being sent to go again after", () => {
      const before = scheduleOf({ a: { status: "waiting", failures: 3, dueAt: NOW + 60_000 }, b: { status: "sending", failures: 1, flushed: false } });
      const after = listed(before, ["a", "b", "c"], true);
      expect(stateOf(after, "a")).toEqual({ status: "flushed", failures: 3 });
      expect(stateOf(after, "b")).toEqual({ status: "sending", failures: 1, flushed: true });
      expect(stateOf(after, "c")).toEqual({ status: "flushed", failures: 0 });
    });
  });

  describe("reported", () => {
    it("makes a document waiting out its failures due now, its failures kept; a document being sent is left alone", () => {
      const before = scheduleOf({ a: { status: "waiting", failures: 2, dueAt: NOW + 15_000 }, b: { status: "sending", failures: 0, flushed: false } });
      const after = reported(reported(before, "a", NOW), "b", NOW);
      expect(stateOf(after, "a")).toEqual({ status: "waiting", failures: 2, dueAt: NOW });
      expect(stateOf(after, "b")).toEqual(stateOf(before, "b"));
      // A document not listed yet joins at the next listing.
      expect(reported(before, "new", NOW)).toBe(before);
    });
  });

  describe("dueDocuments", () => {
    it("starts the due and the flushed ones, those that never failed first, then in the listing's order", () => {
      const schedule = scheduleOf({
        failing: { status: "waiting", failures: 2, dueAt: NOW },
        later: { status: "waiting", failures: 0, dueAt: NOW + 1 },
        fresh1: fresh,
        flushed: { status: "flushed", failures: 1 },
      });
      expect(dueDocuments(schedule, NOW)).toEqual(["fresh1", "flushed", "failing"]);
    });

    it(`starts at most ${OUTBOX_PARALLEL_DOCUMENTS} requests at once, counting those on their way`, () => {
      const schedule = scheduleOf({ s: { status: "sending", failures: 0, flushed: false }, a: fresh, b: fresh, c: fresh });
      expect(dueDocuments(schedule, NOW)).toEqual(["a", "b"]);
      const full = scheduleOf({ s1: { status: "sending", failures: 0, flushed: false }, s2: { status: "sending", failures: 0, flushed: false }, s3: { status: "sending", failures: 0, flushed: false }, a: fresh });
      expect(dueDocuments(full, NOW)).toEqual([]);
    });

    it("starts nothing, flushed ones included, before a 429's wait is over", () => {
      const schedule = scheduleOf({ a: fresh, b: { status: "flushed", failures: 0 } }, NOW + 1);
      expect(dueDocuments(schedule, NOW)).toEqual([]);
      expect(dueDocuments(schedule, NOW + 1)).toEqual(["a", "b"]);
    });
  });

  describe("started", () => {
    it("marks the document as being sent, its failures kept, and refuses a second request of it", () => {
      const after = started(scheduleOf({ a: { status: "flushed", failures: 2 } }), "a");
      expect(stateOf(after, "a")).toEqual({ status: "sending", failures: 2, flushed: false });
      expect(() => started(after, "a")).toThrow("cannot start: sending");
      expect(() => started(EMPTY_SCHEDULE, "b")).toThrow("not listed");
    });
  });

  describe("delivered", () => {
    it("forgets the failures: the document's next report goes at once", () => {
      const after = delivered(scheduleOf({ a: { status: "sending", failures: 4, flushed: false } }), "a");
      expect(stateOf(after, "a")).toEqual(fresh);
    });

    it("sends a document flushed during its request again at once", () => {
      const after = delivered(scheduleOf({ a: { status: "sending", failures: 4, flushed: true } }), "a");
      expect(stateOf(after, "a")).toEqual({ status: "flushed", failures: 0 });
    });
  });

  describe("failed", () => {
    it("waits 2 s, 5 s, 15 s, 30 s, then 60 s every time", () => {
      let schedule = scheduleOf({ a: { status: "sending", failures: 0, flushed: false } });
      const waits: number[] = [];
      for (let attempt = 0; attempt < OUTBOX_RETRY_DELAYS_MS.length + 2; attempt++) {
        schedule = failed(schedule, "a", NOW);
        const state = stateOf(schedule, "a")!;
        if (state.status !== "waiting") throw new Error(`not waiting: ${state.status}`);
        waits.push(state.dueAt - NOW);
        expect(state.failures).toBe(attempt + 1);
        schedule = started(schedule, "a");
      }
      expect(waits).toEqual([...OUTBOX_RETRY_DELAYS_MS, 60_000, 60_000]);
    });

    it("counts the failure but sends a document flushed during its request again at once", () => {
      const after = failed(scheduleOf({ a: { status: "sending", failures: 1, flushed: true } }), "a", NOW);
      expect(stateOf(after, "a")).toEqual({ status: "flushed", failures: 2 });
    });
  });

  describe("rateLimited", () => {
    it("pauses everything for the Retry-After, holds the document until then, and counts no failure", () => {
      const after = rateLimited(scheduleOf({ a: { status: "sending", failures: 1, flushed: false } }), "a", NOW, 10_000);
      expect(after.pausedUntil).toBe(NOW + 10_000);
      expect(stateOf(after, "a")).toEqual({ status: "waiting", failures: 1, dueAt: NOW + 10_000 });
    });

    it(`waits at least ${MIN_RATE_LIMIT_WAIT_MS} ms whatever the Retry-After (0 included), and never shortens a longer pause`, () => {
      const sending: DocumentState = { status: "sending", failures: 0, flushed: false };
      expect(rateLimited(scheduleOf({ a: sending }), "a", NOW, 0).pausedUntil).toBe(NOW + MIN_RATE_LIMIT_WAIT_MS);
      expect(rateLimited(scheduleOf({ a: sending }, NOW + 60_000), "a", NOW, 2_000).pausedUntil).toBe(NOW + 60_000);
    });
  });

  describe("held", () => {
    it("keeps a document that stopped for another document's 429 until the pause is over, its failures kept", () => {
      const after = held(scheduleOf({ a: { status: "sending", failures: 2, flushed: false } }, NOW + 7_000), "a");
      expect(stateOf(after, "a")).toEqual({ status: "waiting", failures: 2, dueAt: NOW + 7_000 });
      expect(after.pausedUntil).toBe(NOW + 7_000);
    });
  });

  describe("nextWake", () => {
    it("wakes for the earliest document due later, never for one being sent", () => {
      const schedule = scheduleOf({
        a: { status: "waiting", failures: 1, dueAt: NOW + 5_000 },
        b: { status: "waiting", failures: 1, dueAt: NOW + 2_000 },
        c: { status: "sending", failures: 0, flushed: false },
      });
      expect(nextWake(schedule, NOW)).toBe(NOW + 2_000);
    });

    it("does not wake for documents already due (a free slot starts them), nor with nothing waiting", () => {
      expect(nextWake(scheduleOf({ a: fresh, b: { status: "flushed", failures: 0 } }), NOW)).toBeUndefined();
      expect(nextWake(EMPTY_SCHEDULE, NOW)).toBeUndefined();
    });

    it("wakes no earlier than a 429's wait is over, for every document held by it", () => {
      expect(nextWake(scheduleOf({ a: fresh }, NOW + 3_000), NOW)).toBe(NOW + 3_000);
      expect(nextWake(scheduleOf({ a: { status: "waiting", failures: 1, dueAt: NOW + 1_000 } }, NOW + 3_000), NOW)).toBe(NOW + 3_000);
    });
  });
});
