import { afterEach, describe, expect, it, vi } from "vitest";
import { createExportQueryGate, createExportSlots, EXPORT_WAIT_MS, EXPORTS_PER_USER, exportsBusyError } from "@/lib/documents/export-slots";

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("export slots per user", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs at most two of one user's exports at once and queues the rest in order", async () => {
    expect(EXPORTS_PER_USER).toBe(2);
    const slots = createExportSlots();
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const requests = Array.from({ length: 6 }, (_, i) =>
      slots.acquire("alice").then((release) => {
        started.push(i);
        releases[i] = release as () => void;
      }),
    );
    await settled();
    expect(started).toEqual([0, 1]);
    expect(slots.count("alice")).toEqual({ running: 2, waiting: 4 });
    // Another user is not held up by Alice's line.
    expect(await slots.acquire("bob")).toEqual(expect.any(Function));
    releases[1]!();
    // A second release of the same slot frees nothing more.
    releases[1]!();
    await settled();
    expect(started).toEqual([0, 1, 2]);
    expect(slots.count("alice")).toEqual({ running: 2, waiting: 3 });
    for (const i of [0, 2, 3, 4]) {
      releases[i]!();
      await settled();
    }
    await Promise.all(requests);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    releases[5]!();
    expect(slots.count("alice")).toEqual({ running: 0, waiting: 0 });
  });

  it("gives up the place of a request whose client went away while it waited", async () => {
    const slots = createExportSlots(1);
    const first = await slots.acquire("alice");
    const gone = new AbortController();
    const abandoned = slots.acquire("alice", gone.signal);
    const next = slots.acquire("alice");
    expect(slots.count("alice")).toEqual({ running: 1, waiting: 2 });
    gone.abort();
    expect(await abandoned).toBe("abandoned");
    expect(slots.count("alice")).toEqual({ running: 1, waiting: 1 });
    (first as () => void)();
    expect(await next).toEqual(expect.any(Function));
    expect(slots.count("alice")).toEqual({ running: 1, waiting: 0 });
    expect(await slots.acquire("alice", AbortSignal.abort())).toBe("abandoned");
  });

  it("refuses an export that waited its longest in line, gives its place to the next, and starts one granted in time", async () => {
    vi.useFakeTimers();
    expect(EXPORT_WAIT_MS).toBe(30_000);
    const slots = createExportSlots(1, EXPORT_WAIT_MS);
    const first = (await slots.acquire("alice")) as () => void;
    const late = slots.acquire("alice");
    await vi.advanceTimersByTimeAsync(10_000);
    const later = slots.acquire("alice");
    await vi.advanceTimersByTimeAsync(EXPORT_WAIT_MS - 10_000 - 1);
    expect(slots.count("alice")).toEqual({ running: 1, waiting: 2 });
    await vi.advanceTimersByTimeAsync(1);
    expect(await late).toBe("busy");
    expect(slots.count("alice")).toEqual({ running: 1, waiting: 1 });
    // The one behind it is granted the slot when it frees, before its own wait is over, and is not refused later.
    first();
    const granted = await later;
    expect(granted).toEqual(expect.any(Function));
    await vi.advanceTimersByTimeAsync(EXPORT_WAIT_MS);
    expect(slots.count("alice")).toEqual({ running: 1, waiting: 0 });
    (granted as () => void)();
    expect(slots.count("alice")).toEqual({ running: 0, waiting: 0 });
  });

  it("answers a refused export with a 429 that says why and when to come back", () => {
    const error = exportsBusyError();
    expect(error).toMatchObject({ code: "RATE_LIMITED", status: 429, rateLimit: { limit: "documents-export-running", retryAfterSeconds: 10, headers: { "retry-after": "10" } } });
    expect(error.userMessage).toBe("2 of your exports are still running and this one waited 30 s for one of them to end. Try again in 10 s.");
  });
});

describe("export query gate across users", () => {
  it("runs one query at a time in order when its size is one, and starts the next only after a turn of the event loop", async () => {
    const gate = createExportQueryGate(() => 1);
    const order: string[] = [];
    let immediateRan = false;
    const query = (name: string) =>
      gate.run(async () => {
        order.push(`start ${name}`);
        await Promise.resolve();
        order.push(`end ${name}`);
        return name;
      });
    const all = Promise.all([query("a"), query("b"), query("c")]);
    // I/O and timers scheduled now run before b starts: a's place is given up only on the next turn.
    setImmediate(() => {
      immediateRan = true;
      order.push("other work");
    });
    expect(gate.count()).toEqual({ running: 1, waiting: 2 });
    expect(await all).toEqual(["a", "b", "c"]);
    expect(immediateRan).toBe(true);
    expect(order).toEqual(["start a", "end a", "other work", "start b", "end b", "start c", "end c"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.count()).toEqual({ running: 0, waiting: 0 });
  });

  it("runs two at once when its size is two, and gives the place up after a failed query too", async () => {
    const gate = createExportQueryGate(() => 2);
    let active = 0;
    let most = 0;
    const query = (fail: boolean) =>
      gate.run(async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active -= 1;
        if (fail) throw new Error("query failed");
        return true;
      });
    const results = await Promise.allSettled([query(true), query(false), query(false), query(true), query(false)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(most).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.count()).toEqual({ running: 0, waiting: 0 });
  });
});
