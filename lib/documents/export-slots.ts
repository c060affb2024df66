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
