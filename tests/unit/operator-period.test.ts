import { describe, expect, it } from "vitest";
import { resolvePeriod } from "@/app/operator/_lib/period";
import { addDays, dayIn, daysOfPeriod, startOfDay } from "@/lib/calendar-days";
import { readStuckParams, stuckCursorParam } from "@/app/operator/_lib/stuck-params";

const NOW = new Date("2026-11-27T16:30:00Z");

describe("the operator overview's period", () => {
  it("counts the last 7 days up to the end of today in the operator's zone", () => {
    // 16:30 UTC is already the 28th in Tokyo (01:30 JST).
    const tokyo = resolvePeriod({}, "Asia/Tokyo", NOW);
    expect(tokyo.ok && { from: tokyo.period.from.toISOString(), to: tokyo.period.to.toISOString(), first: tokyo.firstDay, last: tokyo.lastDay }).toEqual({
      from: "2026-11-21T15:00:00.000Z",
      to: "2026-11-28T15:00:00.000Z",
      first: "2026-11-22",
      last: "2026-11-28",
    });
    const utc = resolvePeriod({ range: "today" }, "UTC", NOW);
    expect(utc.ok && [utc.period.from.toISOString(), utc.period.to.toISOString()]).toEqual(["2026-11-27T00:00:00.000Z", "2026-11-28T00:00:00.000Z"]);
  });

  it("finds local midnight across a daylight-saving change", () => {
    // New York: EDT (−4) until 2 November 2025, EST (−5) from then.
    expect(startOfDay("2025-11-02", "America/New_York").toISOString()).toBe("2025-11-02T04:00:00.000Z");
    expect(startOfDay("2025-11-03", "America/New_York").toISOString()).toBe("2025-11-03T05:00:00.000Z");
    const custom = resolvePeriod({ range: "custom", from: "2025-11-01", to: "2025-11-02" }, "America/New_York", NOW);
    // The 2nd has 25 hours.
    expect(custom.ok && custom.period.to.getTime() - custom.period.from.getTime()).toBe(49 * 3_600_000);
  });

  it("starts a day at its first instant where daylight saving skips midnight, and at the earlier of two midnights", () => {
    // Santiago: 2026-09-06 00:00 (UTC−4) is skipped to 01:00 (UTC−3); the 7th begins at 00:00 UTC−3.
    expect(startOfDay("2026-09-06", "America/Santiago").toISOString()).toBe("2026-09-06T04:00:00.000Z");
    expect(startOfDay("2026-09-07", "America/Santiago").toISOString()).toBe("2026-09-07T03:00:00.000Z");
    // Havana: 2026-03-08 00:00 (UTC−5) is skipped to 01:00 (UTC−4).
    expect(startOfDay("2026-03-08", "America/Havana").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    // Havana sets its clock back from 01:00 to 00:00 on 2026-11-01: midnight twice, the day starts at the first.
    expect(startOfDay("2026-11-01", "America/Havana").toISOString()).toBe("2026-11-01T04:00:00.000Z");
    for (const [zone, day] of [
      ["America/Santiago", "2026-09-06"],
      ["America/Havana", "2026-03-08"],
    ] as const) {
      const single = resolvePeriod({ range: "custom", from: day, to: day }, zone, NOW);
      expect(single.ok && daysOfPeriod(single.period.from, single.period.to, zone)).toEqual([day]);
      // The instant before the day's start is still the day before.
      expect(single.ok && dayIn(single.period.from.getTime() - 1, zone)).toBe(addDays(day, -1));
    }
    const santiago = resolvePeriod({ range: "custom", from: "2026-09-06", to: "2026-09-06" }, "America/Santiago", NOW);
    // The day has 23 hours.
    expect(santiago.ok && [santiago.period.from.toISOString(), santiago.period.to.toISOString()]).toEqual(["2026-09-06T04:00:00.000Z", "2026-09-07T03:00:00.000Z"]);
  });

  it("answers a year outside 1970–9998 with the field named, never a thrown RangeError", () => {
    expect(resolvePeriod({ range: "custom", from: "9999-12-30", to: "9999-12-31" }, "UTC", NOW)).toMatchObject({ ok: false, error: { field: "from", problem: "year" } });
    expect(resolvePeriod({ range: "custom", from: "9998-12-31", to: "9999-12-31" }, "America/Santiago", NOW)).toMatchObject({ ok: false, error: { field: "to", problem: "year" } });
    expect(resolvePeriod({ range: "custom", from: "1969-12-31", to: "1970-01-01" }, "UTC", NOW)).toMatchObject({ ok: false, error: { field: "from", problem: "year" } });
    const last = resolvePeriod({ range: "custom", from: "9998-12-31", to: "9998-12-31" }, "Asia/Tokyo", NOW);
    expect(last.ok && last.period.to.toISOString()).toBe("9998-12-31T15:00:00.000Z");
    const first = resolvePeriod({ range: "custom", from: "1970-01-01", to: "1970-01-01" }, "UTC", NOW);
    expect(first.ok && first.period.from.getTime()).toBe(0);
  });

  it("names the field of a bad custom period and keeps what was typed", () => {
    expect(resolvePeriod({ range: "custom", from: "2026-02-30", to: "2026-03-01" }, "UTC", NOW)).toMatchObject({
      ok: false,
      error: { field: "from", problem: "invalid" },
      params: { from: "2026-02-30", to: "2026-03-01" },
    });
    expect(resolvePeriod({ range: "custom", from: "2026-03-02" }, "UTC", NOW)).toMatchObject({ ok: false, error: { field: "to", problem: "missing" } });
    expect(resolvePeriod({ range: "custom", from: "2026-03-02", to: "2026-03-01" }, "UTC", NOW)).toMatchObject({ ok: false, error: { field: "to", problem: "order" } });
    expect(resolvePeriod({ range: "custom", from: "2025-01-01", to: "2026-01-02" }, "UTC", NOW)).toMatchObject({ ok: false, error: { field: "to", problem: "tooLong" } });
    expect(resolvePeriod({ range: "yesterday" }, "UTC", NOW)).toMatchObject({ ok: false, error: { field: "range", problem: "unknown" } });
  });
});

describe("the stuck list's settings", () => {
  it("takes whole minutes up to a week, full-width digits included, and names a bad one", () => {
    expect(readStuckParams({ created: "１２０", silent: "15" }, false)).toEqual({ params: { createdMinutes: 120, silentMinutes: 15, now: null, after: null }, errors: [] });
    expect(readStuckParams({}, false).params).toEqual({ createdMinutes: 60, silentMinutes: 30, now: null, after: null });
    expect(readStuckParams({ created: "0", silent: "10081" }, false).errors).toEqual([{ field: "created" }, { field: "silent" }]);
    expect(readStuckParams({ created: "1.5" }, false).errors).toEqual([{ field: "created" }]);
  });

  it("accepts a time to compute the list at only on the sandbox", () => {
    const at = "2026-11-27T18:00:00.000Z";
    expect(readStuckParams({ now: at }, true).params.now?.toISOString()).toBe(at);
    expect(readStuckParams({ now: at }, false)).toMatchObject({ params: { now: null }, errors: [{ field: "now" }] });
    expect(readStuckParams({ now: "tomorrow" }, true).errors).toEqual([{ field: "now" }]);
  });

  it("reads where the previous page ended as its next link wrote it, and names anything else", () => {
    const cursor = { atMicros: 1_795_000_000_123_000, eventId: 4711 };
    expect(stuckCursorParam(cursor)).toBe("1795000000123000.4711");
    expect(readStuckParams({ after: stuckCursorParam(cursor) }, false)).toEqual({ params: expect.objectContaining({ after: cursor }), errors: [] });
    for (const after of ["1795000000123000", "x.1", "1.-2", "1.2.3", "12345678901234567.1"]) {
      expect(readStuckParams({ after }, false)).toMatchObject({ params: { after: null }, errors: [{ field: "after" }] });
    }
  });
});
