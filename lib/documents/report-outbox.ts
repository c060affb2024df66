import { batchReports, randomUuid, type DocumentReport, type UploadMilestone } from "@/lib/documents/document-report";

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

/** Waits between one document's delivery attempts while the app does not take them; the last one repeats. */
export const OUTBOX_RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000] as const;

/** How long an undelivered report is kept: past this, the record it would complete is long settled. */
export const OUTBOX_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export type OutboxOptions = {
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  /** Told how many reports the app refused for good (a 4xx) and were dropped; the console by default (a count, no names). */
  onDropped?: (count: number) => void;
};

/** One document's delivery schedule: how many attempts in a row failed, and when the next may start. */
type Backoff = { failures: number; dueAt: number };

function warnDropped(count: number): void {
  console.warn(`document reports: ${count} refused by the app (4xx) and dropped`);
}

/**
 * The browser's side of the document record: each upload milestone becomes a report that is kept (memory and the
 * store) until the app has it. `report()` returns at once and never waits on the network or the store, so an
 * upload never waits for the record. Delivery runs one round at a time: on each new report, on `flush()` (page
 * load, `online`), and when a document's next attempt is due. Each document has its own schedule: when the app
 * does not take its reports (5xx, unreachable, or the send itself threw), that document waits 2 s, 5 s, 15 s …
 * while every other document's reports go on, and a round sends the documents that never failed first. Reports the
 * app refused for good (a 4xx: invalid, or a document the user removed) are dropped and counted.
 */
export class ReportOutbox {
  private readonly pending = new Map<string, OutboxEntry>();
  private readonly backoff = new Map<string, Backoff>();
  private seq = 0;
  private running: Promise<void> | null = null;
  /** The round that starts when the running one ends: a report made meanwhile is delivered by it. */
  private next: Promise<void> | null = null;
  /** Whether the next round sends every document now, their schedules notwithstanding (flush). */
  private nextForced = false;
  private timer: unknown = null;
  private droppedCount = 0;
  private readonly now: () => number;
  private readonly setTimer: (run: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;
  private readonly onDropped: (count: number) => void;

  constructor(
    private readonly userKey: string,
    private readonly store: OutboxStore,
    private readonly send: SendReports,
    options: OutboxOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
    this.onDropped = options.onDropped ?? warnDropped;
  }

  /** How many reports this page dropped because the app refused them for good. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Records a milestone of `itemId` and starts delivering it (that document at once, others when due); returns at once. */
  report = (itemId: string, milestone: UploadMilestone): void => {
    const queuedAt = this.now();
    const id = randomUuid();
    const entry: OutboxEntry = { id, userKey: this.userKey, itemId, report: { ...milestone, id, at: new Date(queuedAt).toISOString() }, queuedAt, seq: this.seq++ };
    this.pending.set(id, entry);
    const schedule = this.backoff.get(itemId);
    if (schedule) schedule.dueAt = queuedAt;
    // Written before the first attempt, so a page closed mid-request still has it; memory carries it if the store fails.
    void this.store.put(entry).catch(() => undefined).then(() => this.round(false));
  };

  /**
   * Delivers every waiting report of this user now, whatever each document's schedule (page load, `online`), or
   * right after the round already running; resolves once that round is over, delivered or not.
   */
  flush = (): Promise<void> => this.round(true);

  /** Reports not yet delivered, oldest first (for the page and tests). */
  async waiting(): Promise<OutboxEntry[]> {
    const stored = await this.store.list(this.userKey).catch(() => [] as OutboxEntry[]);
    const all = new Map(stored.map((entry) => [entry.id, entry]));
    for (const [id, entry] of this.pending) all.set(id, entry);
    return [...all.values()].sort((a, b) => a.queuedAt - b.queuedAt || a.seq - b.seq);
  }

  private round(force: boolean): Promise<void> {
    if (this.running) {
      this.nextForced ||= force;
      this.next ??= this.running.then(() => {
        const forced = this.nextForced;
        this.next = null;
        this.nextForced = false;
        return this.round(forced);
      });
      return this.next;
    }
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    this.running = this.deliver(force).finally(() => {
      this.running = null;
      this.scheduleNext();
    });
    return this.running;
  }

  private async deliver(force: boolean): Promise<void> {
    const all = await this.waiting();
    const now = this.now();
    const expired = all.filter((entry) => now - entry.queuedAt > OUTBOX_MAX_AGE_MS);
    if (expired.length > 0) await this.forget(expired);
    const byItem = new Map<string, OutboxEntry[]>();
    for (const entry of all) {
      if (expired.includes(entry)) continue;
      byItem.set(entry.itemId, [...(byItem.get(entry.itemId) ?? []), entry]);
    }
    for (const itemId of this.backoff.keys()) if (!byItem.has(itemId)) this.backoff.delete(itemId);
    // Documents whose reports never failed first, then by their oldest report: a failing one goes last.
    const due = [...byItem.keys()]
      .filter((itemId) => force || (this.backoff.get(itemId)?.dueAt ?? 0) <= now)
      .sort((a, b) => (this.backoff.get(a)?.failures ?? 0) - (this.backoff.get(b)?.failures ?? 0));
    for (const itemId of due) await this.deliverItem(itemId, byItem.get(itemId)!);
  }

  /** Sends one document's reports in order, ≤ 50 and ≤ 16 KiB a request; stops at its first failure and schedules its next try. */
  private async deliverItem(itemId: string, entries: OutboxEntry[]): Promise<void> {
    for (const batch of batchReports(entries)) {
      // A send that throws (a bug) counts as "not taken": retried on this document's schedule, never blocking others.
      const outcome = await Promise.resolve()
        .then(() => this.send(itemId, batch.map((entry) => entry.report)))
        .catch((): SendOutcome => "retry");
      if (outcome === "retry") {
        const failures = (this.backoff.get(itemId)?.failures ?? 0) + 1;
        const delay = OUTBOX_RETRY_DELAYS_MS[Math.min(failures, OUTBOX_RETRY_DELAYS_MS.length) - 1]!;
        this.backoff.set(itemId, { failures, dueAt: this.now() + delay });
        return;
      }
      if (outcome === "refused") {
        this.droppedCount += batch.length;
        this.onDropped(batch.length);
      }
      await this.forget(batch);
    }
    this.backoff.delete(itemId);
  }

  private async forget(entries: OutboxEntry[]): Promise<void> {
    for (const entry of entries) this.pending.delete(entry.id);
    await this.store.remove(entries.map((entry) => entry.id)).catch(() => undefined);
  }

  /** One timer, for the document whose next attempt is due first. */
  private scheduleNext(): void {
    if (this.next || this.backoff.size === 0) return;
    const dueAt = Math.min(...[...this.backoff.values()].map((schedule) => schedule.dueAt));
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.round(false);
    }, Math.max(0, dueAt - this.now()));
  }
}
