import "server-only";

/**
 * How many exports of one user run at once in this process; more wait in line (queued, never refused). Each export
 * holds one batch in memory (lib/documents/documents-export.ts), so this bounds one user's share of the heap and of
 * the database (PGlite answers one query at a time), and two in parallel still let a user download CSV and JSON together.
 */
export const EXPORTS_PER_USER = 2;

type Waiter = { start: () => void };

/**
 * Per-user export slots, FIFO: `acquire` resolves a release function once one of the user's `perUser` slots is
 * free, or null if `signal` aborts first (the client went away while queued: its place is given up). The queue
 * lives in this process's memory: with several instances each has its own, so a user gets `perUser` per instance.
 */
export function createExportSlots(perUser = EXPORTS_PER_USER) {
  const running = new Map<string, number>();
  const waiting = new Map<string, Waiter[]>();

  function grant(userKey: string): () => void {
    running.set(userKey, (running.get(userKey) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (running.get(userKey) ?? 1) - 1;
      if (left > 0) running.set(userKey, left);
      else running.delete(userKey);
      const line = waiting.get(userKey);
      const next = line?.shift();
      if (line?.length === 0) waiting.delete(userKey);
      next?.start();
    };
  }

  return {
    acquire(userKey: string, signal?: AbortSignal): Promise<(() => void) | null> {
      if (signal?.aborted) return Promise.resolve(null);
      if ((running.get(userKey) ?? 0) < perUser) return Promise.resolve(grant(userKey));
      return new Promise((resolve) => {
        const onAbort = () => {
          const line = waiting.get(userKey) ?? [];
          const at = line.indexOf(waiter);
          if (at >= 0) line.splice(at, 1);
          if (line.length === 0) waiting.delete(userKey);
          resolve(null);
        };
        const waiter: Waiter = {
          start: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(grant(userKey));
          },
        };
        const line = waiting.get(userKey);
        if (line) line.push(waiter);
        else waiting.set(userKey, [waiter]);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    /** Exports of the user running now and waiting (for tests and logs). */
    count(userKey: string): { running: number; waiting: number } {
      return { running: running.get(userKey) ?? 0, waiting: waiting.get(userKey)?.length ?? 0 };
    },
  };
}

/** This process's export slots. */
export const exportSlots = createExportSlots();

/**
 * How many export batch queries run at once in this process, across users: PGlite runs every query on the event
 * loop itself (WASM), so one at a time, with a turn of the event loop after each (other requests, /api/health
 * among them, are answered between two batches instead of after a run of them); PostgreSQL works in its own
 * processes, so two.
 */
export const EXPORT_QUERIES_AT_ONCE = { pglite: 1, postgres: 2 } as const;

/**
 * A FIFO gate for export batch queries: `run` waits for one of `size` places, runs the query, and gives the place
 * up only after a turn of the event loop (setImmediate), so the next export query starts no earlier than the
 * next turn and the I/O that arrived meanwhile is served first. Queued, never refused.
 */
export function createExportQueryGate(size: () => number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) {
      running += 1;
      next();
    }
  };
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running < size()) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        setImmediate(release);
      }
    },
    /** Queries running and waiting now (for tests). */
    count(): { running: number; waiting: number } {
      return { running, waiting: waiting.length };
    },
  };
}

type ExportQueryGate = ReturnType<typeof createExportQueryGate>;

/**
 * This process's export query gate for a kind of database. On globalThis: Next's production build loads a module
 * more than once, and the bound holds only if every route shares one gate.
 */
export function exportQueryGate(kind: keyof typeof EXPORT_QUERIES_AT_ONCE): ExportQueryGate {
  const key = Symbol.for("esign.exportQueryGates");
  const store = globalThis as unknown as Record<symbol, Map<string, ExportQueryGate> | undefined>;
  const gates = (store[key] ??= new Map());
  let gate = gates.get(kind);
  if (!gate) {
    gate = createExportQueryGate(() => EXPORT_QUERIES_AT_ONCE[kind]);
    gates.set(kind, gate);
  }
  return gate;
}
