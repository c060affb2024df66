/**
 * The page's renderer main thread in a Lighthouse trace, as wall-clock time and as CPU time (Chrome's thread clock,
 * `tdur`). Lighthouse's main-thread work is the wall-clock figure (× its 4× CPU slowdown); on a busy 2-core machine a
 * task also waits for a core, and that wait counts there. The CPU figure is the work itself (docs/page-weight.md).
 */
export interface TraceEvent {
  name?: string;
  ph?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { url?: string; isMainFrame?: boolean } };
}

export interface RendererTime {
  /** Sum of the main thread's top-level tasks from the navigation on, wall-clock ms (unthrottled). */
  wallMs: number;
  /** The same tasks' thread time, ms; NaN when the trace has no thread clock. */
  cpuMs: number;
}

/** The measured page's commit: its `CommitLoad` of an http(s) URL in the main frame (pid and tid: its renderer's main thread). */
export function pageCommit(events: TraceEvent[]): TraceEvent | undefined {
  return events.find((e) => e.name === "CommitLoad" && e.args?.data?.url?.startsWith("http") && e.args.data.isMainFrame !== false);
}

/** The main thread that committed the measured page (`pageCommit`). */
export function rendererTime(events: TraceEvent[]): RendererTime | null {
  const commit = pageCommit(events);
  if (!commit) return null;
  const starts = events.filter((e) => e.name === "navigationStart" && e.pid === commit.pid).map((e) => e.ts!);
  const from = starts.length ? Math.min(...starts) : -Infinity;
  const tasks = events.filter((e) => e.name === "RunTask" && e.ph === "X" && e.pid === commit.pid && e.tid === commit.tid && e.dur !== undefined && e.ts! >= from);
  return {
    wallMs: tasks.reduce((sum, e) => sum + e.dur!, 0) / 1000,
    cpuMs: tasks.every((e) => e.tdur !== undefined) ? tasks.reduce((sum, e) => sum + e.tdur!, 0) / 1000 : Number.NaN,
  };
}
