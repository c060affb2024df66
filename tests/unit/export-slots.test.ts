import { describe, expect, it } from "vitest";
import { createExportSlots, EXPORTS_PER_USER } from "@/lib/documents/export-slots";

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
