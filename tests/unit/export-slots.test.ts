import { describe, expect, it } from "vitest";
import { createExportQueryGate, createExportSlots, EXPORTS_PER_USER } from "@/lib/documents/export-slots";

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("export slots per user", () => {
  it("runs at most two of one user's exports at once and queues the rest in order, never refusing one", async () => {
    expect(EXPORTS_PER_USER).toBe(2);
    const slots = createExportSlots();
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const requests = Array.from({ length: 6 }, (_, i) =>
      slots.acquire("alice").then((release) => {
        started.push(i);
        releases[i] = release!;
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
    expect(await abandoned).toBeNull();
    expect(slots.count("alice")).toEqual({ running: 1, waiting: 1 });
    first!();
    expect(await next).toEqual(expect.any(Function));
    expect(slots.count("alice")).toEqual({ running: 1, waiting: 0 });
    expect(await slots.acquire("alice", AbortSignal.abort())).toBeNull();
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
