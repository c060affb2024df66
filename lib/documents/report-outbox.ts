import { randomUuid, REPORTS_PER_REQUEST, type DocumentReport, type UploadMilestone } from "@/lib/documents/document-report";

/** One report waiting to be delivered, as kept in the browser (IndexedDB in the app). */
export type OutboxEntry = {
  /** The report's own id: the key in the store, and what makes a repeated delivery harmless. */
  id: string;
  /** Whose report it is (the session's userKey): only that user's session delivers it. */
  userKey: string;
  itemId: string;
  report: DocumentReport;
  /** ms since the epoch, with `seq` for reports made in the same millisecond: delivery keeps this order. */
  queuedAt: number;
  seq: number;
};

/** Where undelivered reports wait; any method may fail (no IndexedDB in some private modes). */
export type OutboxStore = {
  put: (entry: OutboxEntry) => Promise<unknown>;
  list: (userKey: string) => Promise<OutboxEntry[]>;
  remove: (ids: string[]) => Promise<unknown>;
};

/**
 * What became of one request: delivered; to be tried again later (the app or its database did not answer, or
 * the session needs a new sign-in); or refused for good (the reports are invalid or not this user's to make).
 */
export type SendOutcome = "delivered" | "retry" | "refused";

export type SendReports = (itemId: string, reports: DocumentReport[]) => Promise<SendOutcome>;

/** Waits between delivery attempts while the app does not answer; the last one repeats. */
export const OUTBOX_RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000] as const;

/** How long an undelivered report is kept: past this, the record it would complete is long settled. */
export const OUTBOX_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export type OutboxOptions = {
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
};

/**
 * The browser's side of the document record: each upload milestone becomes a report that is kept (memory and the
 * store) until the app has it. `report()` returns at once and never waits on the network or the store, so an
 * upload never waits for the record. Delivery runs one at a time: on each new report, on `flush()` (page load,
 * `online`), and after a failed attempt with growing waits.
 */
export class ReportOutbox {
  private readonly pending = new Map<string, OutboxEntry>();
  private seq = 0;
  private running: Promise<void> | null = null;
  /** The attempt that starts when the running one ends: a report made meanwhile is delivered by it. */
  private next: Promise<void> | null = null;
  private failures = 0;
  private timer: unknown = null;
  private readonly now: () => number;
  private readonly setTimer: (run: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(
    private readonly userKey: string,
    private readonly store: OutboxStore,
    private readonly send: SendReports,
    options: OutboxOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  /** Records a milestone of `itemId` and starts delivering it; returns at once. */
  report = (itemId: string, milestone: UploadMilestone): void => {
    const queuedAt = this.now();
    const id = randomUuid();
    const entry: OutboxEntry = { id, userKey: this.userKey, itemId, report: { ...milestone, id, at: new Date(queuedAt).toISOString() }, queuedAt, seq: this.seq++ };
    this.pending.set(id, entry);
    // Written before the first attempt, so a page closed mid-request still has it; memory carries it if the store fails.
    void this.store.put(entry).catch(() => undefined).then(() => this.flush());
  };

  /**
   * Delivers every waiting report of this user now, or right after the attempt already running; resolves once
   * that attempt is over, delivered or not.
   */
  flush = (): Promise<void> => {
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    if (this.running) {
      this.next ??= this.running.then(() => {
        this.next = null;
        return this.flush();
      });
      return this.next;
    }
    this.running = this.deliver().finally(() => {
      this.running = null;
    });
    return this.running;
  };

  /** Reports not yet delivered, oldest first (for the page and tests). */
  async waiting(): Promise<OutboxEntry[]> {
    const stored = await this.store.list(this.userKey).catch(() => [] as OutboxEntry[]);
    const all = new Map(stored.map((entry) => [entry.id, entry]));
    for (const [id, entry] of this.pending) all.set(id, entry);
    return [...all.values()].sort((a, b) => a.queuedAt - b.queuedAt || a.seq - b.seq);
  }

  private async deliver(): Promise<void> {
    const all = await this.waiting();
    const expired = all.filter((entry) => this.now() - entry.queuedAt > OUTBOX_MAX_AGE_MS);
    if (expired.length > 0) await this.forget(expired);
    const byItem = new Map<string, OutboxEntry[]>();
    for (const entry of all) {
      if (expired.includes(entry)) continue;
      byItem.set(entry.itemId, [...(byItem.get(entry.itemId) ?? []), entry]);
    }
    for (const [itemId, entries] of byItem) {
      for (let i = 0; i < entries.length; i += REPORTS_PER_REQUEST) {
        const batch = entries.slice(i, i + REPORTS_PER_REQUEST);
        const outcome = await this.send(itemId, batch.map((entry) => entry.report)).catch((): SendOutcome => "retry");
        if (outcome === "retry") return this.retryLater();
        await this.forget(batch);
      }
    }
    this.failures = 0;
  }

  private async forget(entries: OutboxEntry[]): Promise<void> {
    for (const entry of entries) this.pending.delete(entry.id);
    await this.store.remove(entries.map((entry) => entry.id)).catch(() => undefined);
  }

  private retryLater(): void {
    const delay = OUTBOX_RETRY_DELAYS_MS[Math.min(this.failures, OUTBOX_RETRY_DELAYS_MS.length - 1)]!;
    this.failures++;
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }
}
