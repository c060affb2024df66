import { MIN_RATE_LIMIT_WAIT_MS } from "@/lib/api-client";
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
 * the session needs a new sign-in); refused for good (the reports are invalid or not this user's to make); or
 * rate-limited (a 429 with `Retry-After`): nothing may be sent before that wait is over.
 */
export type SendOutcome = "delivered" | "retry" | "refused" | { retryAfterMs: number };

/** Sends one document's reports; `signal` aborts the request once the outbox stops waiting for it. */
export type SendReports = (itemId: string, reports: DocumentReport[], signal: AbortSignal) => Promise<SendOutcome>;

/** Waits between one document's delivery attempts while the app does not take them; the last one repeats. */
export const OUTBOX_RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000] as const;

/**
 * How long one request may take before it counts as "not taken" (aborted, retried on that document's schedule):
 * the events route answers within its database's 5 s query timeout, so a request still open at this point hangs.
 */
export const OUTBOX_REQUEST_TIMEOUT_MS = 30_000;

/**
 * How many documents' requests may be on their way at once. They are `keepalive` requests (a page being closed
 * still sends its last report), whose bodies a browser caps at 64 KiB in flight together: three of at most
 * 16 KiB leave room for the page's other keepalive requests.
 */
export const OUTBOX_PARALLEL_DOCUMENTS = 3;

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
 * upload never waits for the record. Each document is delivered on its own, up to OUTBOX_PARALLEL_DOCUMENTS at a
 * time, on each new report, on `flush()` (page load, `online`), and when a document's next attempt is due: a
 * request that hangs is abandoned after OUTBOX_REQUEST_TIMEOUT_MS, and never holds up another document's. When
 * the app does not take a document's reports (5xx, unreachable, timed out, or the send itself threw), that
 * document waits 2 s, 5 s, 15 s … while every other document's reports go on, and the documents that never failed
 * go first. A 429 with `Retry-After` (the user's budget is spent, so every document would get one) holds back
 * every document until the wait is over, and counts as no failure. Reports the app refused for good (a 4xx:
 * invalid, or a document the user removed) are dropped and counted.
 */
export class ReportOutbox {
  private readonly pending = new Map<string, OutboxEntry>();
  private readonly backoff = new Map<string, Backoff>();
  /** Each document whose reports are on their way, with that delivery: never two of one document at once. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Documents `flush()` asked for that wait for a free slot, their schedules notwithstanding. */
  private readonly forced = new Set<string>();
  /**
   * Ids of reports this page delivered or dropped: a listing read while their removal from the store was under
   * way must not send them again.
   */
  private readonly forgotten = new Set<string>();
  /** Nothing is sent before this time (ms): the app answered 429 with `Retry-After`. */
  private pausedUntil = 0;
  private seq = 0;
  /** The listing under way (it starts the deliveries that are due), and the one that follows it. */
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** Whether the next listing marks every waiting document as forced (flush). */
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
   * Delivers every waiting report of this user now, whatever each document's schedule (page load, `online`), but
   * not before a 429's `Retry-After`; resolves once each of those documents had its attempt, delivered or not.
   */
  flush = async (): Promise<void> => {
    await this.round(true);
    while (this.running || this.inFlight.size > 0) await Promise.all([this.running, this.next, ...this.inFlight.values()]);
  };

  /** Reports not yet delivered, oldest first (for the page and tests). */
  async waiting(): Promise<OutboxEntry[]> {
    const stored = await this.store.list(this.userKey).catch(() => [] as OutboxEntry[]);
    const all = new Map(stored.filter((entry) => !this.forgotten.has(entry.id)).map((entry) => [entry.id, entry]));
    for (const [id, entry] of this.pending) all.set(id, entry);
    return [...all.values()].sort((a, b) => a.queuedAt - b.queuedAt || a.seq - b.seq);
  }

  /** Lists what waits and starts what is due; one listing at a time, so one document is never started twice. */
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
    this.running = this.startDue(force).finally(() => {
      this.running = null;
      this.scheduleNext();
    });
    return this.running;
  }

  private async startDue(force: boolean): Promise<void> {
    const all = await this.waiting();
    const now = this.now();
    const expired = all.filter((entry) => now - entry.queuedAt > OUTBOX_MAX_AGE_MS);
    if (expired.length > 0) await this.forget(expired);
    const byItem = new Map<string, OutboxEntry[]>();
    for (const entry of all) {
      if (expired.includes(entry)) continue;
      byItem.set(entry.itemId, [...(byItem.get(entry.itemId) ?? []), entry]);
    }
    for (const itemId of this.backoff.keys()) if (!byItem.has(itemId) && !this.inFlight.has(itemId)) this.backoff.delete(itemId);
    if (force) for (const itemId of byItem.keys()) this.forced.add(itemId);
    for (const itemId of this.forced) if (!byItem.has(itemId)) this.forced.delete(itemId);
    if (now < this.pausedUntil) return;
    // Documents whose reports never failed first, then by their oldest report: a failing one goes last.
    const due = [...byItem.keys()]
      .filter((itemId) => !this.inFlight.has(itemId) && (this.forced.has(itemId) || (this.backoff.get(itemId)?.dueAt ?? 0) <= now))
      .sort((a, b) => (this.backoff.get(a)?.failures ?? 0) - (this.backoff.get(b)?.failures ?? 0));
    for (const itemId of due) {
      if (this.inFlight.size >= OUTBOX_PARALLEL_DOCUMENTS) break;
      this.forced.delete(itemId);
      const delivery = this.deliverItem(itemId, byItem.get(itemId)!).finally(() => {
        this.inFlight.delete(itemId);
        // A slot is free: the next document that is due (or waits for flush) goes.
        void this.round(false);
      });
      this.inFlight.set(itemId, delivery);
    }
  }

  /** Sends one document's reports in order, ≤ 50 and ≤ 16 KiB a request; stops at its first failure and schedules its next try. */
  private async deliverItem(itemId: string, entries: OutboxEntry[]): Promise<void> {
    for (const batch of batchReports(entries)) {
      // Another document was rate-limited meanwhile: this one waits too.
      if (this.now() < this.pausedUntil) return this.holdUntilPauseEnds(itemId);
      const outcome = await this.attempt(itemId, batch.map((entry) => entry.report));
      if (typeof outcome === "object") {
        this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.max(outcome.retryAfterMs, MIN_RATE_LIMIT_WAIT_MS));
        return this.holdUntilPauseEnds(itemId);
      }
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

  /** A rate-limited document keeps its reports and its failure count, and is due when the 429's wait is over. */
  private holdUntilPauseEnds(itemId: string): void {
    this.backoff.set(itemId, { failures: this.backoff.get(itemId)?.failures ?? 0, dueAt: this.pausedUntil });
  }

  /**
   * One request, given up after OUTBOX_REQUEST_TIMEOUT_MS (aborted, "retry") whether or not the send honours its
   * signal. A send that throws (a bug) counts as "retry" too: retried on this document's schedule, never blocking others.
   */
  private async attempt(itemId: string, reports: DocumentReport[]): Promise<SendOutcome> {
    const controller = new AbortController();
    let timer: unknown;
    const timedOut = new Promise<SendOutcome>((resolve) => {
      timer = this.setTimer(() => {
        controller.abort();
        resolve("retry");
      }, OUTBOX_REQUEST_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        Promise.resolve()
          .then(() => this.send(itemId, reports, controller.signal))
          .catch((): SendOutcome => "retry"),
        timedOut,
      ]);
    } finally {
      this.clearTimer(timer);
    }
  }

  private async forget(entries: OutboxEntry[]): Promise<void> {
    for (const entry of entries) {
      this.pending.delete(entry.id);
      this.forgotten.add(entry.id);
    }
    await this.store.remove(entries.map((entry) => entry.id)).catch(() => undefined);
  }

  /** One timer, for the document whose next attempt is due first (not before a 429's wait is over). */
  private scheduleNext(): void {
    if (this.next) return;
    const waiting = [...this.backoff].filter(([itemId]) => !this.inFlight.has(itemId)).map(([, schedule]) => schedule.dueAt);
    if (waiting.length === 0) return;
    const dueAt = Math.max(Math.min(...waiting), this.pausedUntil);
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.round(false);
    }, Math.max(0, dueAt - this.now()));
  }
}
