import "server-only";
import { AppError } from "@/lib/errors";

/**
 * How many exports of one user run at once in this process; more wait in line. Each export holds one batch in
 * memory (lib/documents/documents-export.ts), so this bounds one user's share of the heap and of the database
 * (PGlite answers one query at a time), and two in parallel still let a user download CSV and JSON together.
 */
export const EXPORTS_PER_USER = 2;

/**
 * How long an export waits in line before it is refused (429): a queued export has sent nothing, not even its
 * headers, and a proxy gives up on such a request (the shipped nginx site after 60 s, with a 504 that says nothing).
 */
export const EXPORT_WAIT_MS = 30_000;
/** The Retry-After of that refusal: an export of a few thousand documents takes seconds. */
export const EXPORT_BUSY_RETRY_AFTER_S = 10;

/** What `acquire` gives: the slot's release, or why there is none. */
export type ExportSlot = (() => void) | "abandoned" | "busy";

type Waiter = { start: () => void };

/**
 * Per-user export slots, FIFO: `acquire` resolves a release function once one of the user's `perUser` slots is
 * free; "abandoned" if `signal` aborts first (the client went away while queued), "busy" if `maxWaitMs` pass first;
 * either way its place is given up. The queue lives in this process's memory: with several instances each has its
 * own, so a user gets `perUser` per instance.
 */
export function createExportSlots(perUser = EXPORTS_PER_USER, maxWaitMs = EXPORT_WAIT_MS) {
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
    acquire(userKey: string, signal?: AbortSignal): Promise<ExportSlot> {
      if (signal?.aborted) return Promise.resolve("abandoned");
      if ((running.get(userKey) ?? 0) < perUser) return Promise.resolve(grant(userKey));
      return new Promise((resolve) => {
        const leave = (why: "abandoned" | "busy") => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          const line = waiting.get(userKey) ?? [];
          const at = line.indexOf(waiter);
          if (at >= 0) line.splice(at, 1);
          if (line.length === 0) waiting.delete(userKey);
          resolve(why);
        };
        const onAbort = () => leave("abandoned");
        const timer = setTimeout(() => leave("busy"), maxWaitMs);
        timer.unref?.();
        const waiter: Waiter = {
          start: () => {
            clearTimeout(timer);
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

/** The 429 for an export that waited EXPORT_WAIT_MS in line behind the user's EXPORTS_PER_USER running ones. */
export function exportsBusyError(): AppError {
  const retryAfterSeconds = EXPORT_BUSY_RETRY_AFTER_S;
  return new AppError(
    "RATE_LIMITED",
    429,
    `${EXPORTS_PER_USER} of your exports are still running and this one waited ${EXPORT_WAIT_MS / 1000} s for one of them to end. Try again in ${retryAfterSeconds} s.`,
    undefined,
    { rateLimit: { limit: "documents-export-running", retryAfterSeconds, headers: { "retry-after": String(retryAfterSeconds), "cache-control": "no-store" } } },
  );
}

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
