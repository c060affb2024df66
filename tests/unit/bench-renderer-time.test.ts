import { describe, expect, it } from "vitest";
import { rendererTime, type TraceEvent } from "../../bench/pages/renderer-time";

const commit: TraceEvent = { name: "CommitLoad", pid: 2, tid: 20, ts: 1_000, args: { data: { url: "http://localhost:4250/account", isMainFrame: true } } };
const task = (pid: number, tid: number, ts: number, dur: number, tdur?: number): TraceEvent => ({ name: "RunTask", ph: "X", pid, tid, ts, dur, tdur });

describe("rendererTime", () => {
  it("sums the committing main thread's tasks from its navigation on, as wall-clock and thread time", () => {
    const events = [
      { name: "navigationStart", pid: 2, ts: 900 },
      commit,
      task(2, 20, 800, 5_000, 5_000), // before the navigation: about:blank's
      task(2, 20, 1_000, 40_000, 10_000),
      task(2, 20, 50_000, 6_000, 5_000),
      task(2, 21, 1_000, 90_000, 90_000), // another thread of the renderer
      task(1, 10, 1_000, 70_000, 70_000), // the browser process
    ];
    expect(rendererTime(events)).toEqual({ wallMs: 46, cpuMs: 15 });
  });

  it("gives NaN CPU when the trace has no thread clock, and null without the page's commit", () => {
    expect(rendererTime([commit, task(2, 20, 1_000, 4_000)])).toEqual({ wallMs: 4, cpuMs: Number.NaN });
    expect(rendererTime([task(2, 20, 1_000, 4_000, 4_000)])).toBeNull();
    expect(rendererTime([{ ...commit, args: { data: { url: "about:blank", isMainFrame: true } } }])).toBeNull();
  });
});
