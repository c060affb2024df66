import { batchReports, randomUuid, type DocumentReport, type UploadMilestone } from "@/lib/documents/document-report";
import {
  delivered,
  dueDocuments,
  EMPTY_SCHEDULE,
  failed,
  held,
  listed,
  nextWake,
  rateLimited,
  reported,
  started,
  type Schedule,
} from "@/lib/documents/report-outbox-schedule";

export { OUTBOX_PARALLEL_DOCUMENTS, OUTBOX_RETRY_DELAYS_MS } from "@/lib/documents/report-outbox-schedule";

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

/**
 * How long one request may take before it counts as "not taken" (aborted, retried on that document's schedule):
 * the events route answers within its database's 5 s query timeout, so a request still open at this point hangs.
 */
export const OUTBOX_REQUEST_TIMEOUT_MS = 30_000;

/** How long an undelivered report is kept: past this, the record it would complete is long settled. */
export const OUTBOX_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export type OutboxOptions = {
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  /** Told how many reports the app refused for good (a 4xx) and were dropped; the console by default (a count, no names). */
  onDropped?: (count: number) => void;
};

/**
 * The listings of what waits, each of which starts the deliveries that are due: one at a time, and at most one
 * queued behind it for every report and flush that came meanwhile (a flush among them makes it a flush).
 */
type Listing = { state: "idle" } | { state: "running"; done: Promise<void> } | { state: "queued"; done: Promise<void>; flush: boolean };

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
 * invalid, or a document the user removed) are dropped and counted. Which document goes when is decided by
 * report-outbox-schedule.ts (each document waiting, flushed or being sent); this class keeps the reports and does
 * the store, the requests and the timer.
 */
export class ReportOutbox {
  /** Reports made on this page and not yet delivered or dropped: memory carries them when the store fails. */
  private readonly pending = new Map<string, OutboxEntry>();
  /**
   * Ids of reports this page delivered or dropped: a listing read while their removal from the store was under
   * way must not send them again.
   */
  private readonly forgotten = new Set<string>();
  /** Each document's place in the delivery, and a 429's pause (report-outbox-schedule.ts). */
  private schedule: Schedule = EMPTY_SCHEDULE;
  private listing: Listing = { state: "idle" };
  /** The deliveries under way, one per document being sent: flush() waits for them. */
  private readonly deliveries = new Set<Promise<void>>();
  private timer: unknown = null;
  private seq = 0;
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
    this.schedule = reported(this.schedule, itemId, queuedAt);
    // Written before the first attempt, so a page closed mid-request still has it; memory carries it if the store fails.
    void this.store.put(entry).catch(() => undefined).then(() => this.round(false));
  };

  /**
   * Delivers every waiting report of this user now, whatever each document's schedule (page load, `online`), but
   * not before a 429's `Retry-After`; resolves once each of those documents had its attempt, delivered or not.
   */
  flush = async (): Promise<void> => {
    await this.round(true);
    while (this.listing.state !== "idle" || this.deliveries.size > 0) {
      const listing = this.listing;
      await Promise.all([listing.state === "idle" ? undefined : listing.done, ...this.deliveries]);
    }
  };

  /** Reports not yet delivered, oldest first (for the page and tests). */
  async waiting(): Promise<OutboxEntry[]> {
    const stored = await this.store.list(this.userKey).catch(() => [] as OutboxEntry[]);
    const all = new Map(stored.filter((entry) => !this.forgotten.has(entry.id)).map((entry) => [entry.id, entry]));
    for (const [id, entry] of this.pending) all.set(id, entry);
    return [...all.values()].sort((a, b) => a.queuedAt - b.queuedAt || a.seq - b.seq);
  }

  /** Lists what waits and starts what is due; one listing at a time, so one document is never started twice. */
  private round(flush: boolean): Promise<void> {
    const listing = this.listing;
    if (listing.state === "queued") {
      listing.flush ||= flush;
      return listing.done;
    }
    if (listing.state === "running") {
      const queued: Listing & { state: "queued" } = {
        state: "queued",
        flush,
        done: listing.done.then(() => {
          this.listing = { state: "idle" };
          return this.round(queued.flush);
        }),
      };
      this.listing = queued;
      return queued.done;
    }
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    const done = this.startDue(flush).finally(() => {
      // A queued listing follows at once and arms the timer itself.
      if (this.listing.state !== "running") return;
      this.listing = { state: "idle" };
      this.scheduleNext();
    });
    this.listing = { state: "running", done };
    return done;
  }

  private async startDue(flush: boolean): Promise<void> {
    const all = await this.waiting();
    const now = this.now();
    const expired = all.filter((entry) => now - entry.queuedAt > OUTBOX_MAX_AGE_MS);
    if (expired.length > 0) await this.forget(expired);
    const byItem = new Map<string, OutboxEntry[]>();
    for (const entry of all) {
      if (expired.includes(entry)) continue;
      byItem.set(entry.itemId, [...(byItem.get(entry.itemId) ?? []), entry]);
    }
    this.schedule = listed(this.schedule, [...byItem.keys()], flush);
    for (const itemId of dueDocuments(this.schedule, now)) {
      this.schedule = started(this.schedule, itemId);
      const delivery = this.deliverItem(itemId, byItem.get(itemId)!).finally(() => {
        this.deliveries.delete(delivery);
        // A slot is free: the next document that is due (or flushed) goes.
        void this.round(false);
      });
      this.deliveries.add(delivery);
    }
  }

  /** Sends one document's reports in order, ≤ 50 and ≤ 16 KiB a request; stops at its first failure and schedules its next try. */
  private async deliverItem(itemId: string, entries: OutboxEntry[]): Promise<void> {
    for (const batch of batchReports(entries)) {
      // Another document was rate-limited meanwhile: this one waits too.
      if (this.now() < this.schedule.pausedUntil) {
        this.schedule = held(this.schedule, itemId);
        return;
      }
      const outcome = await this.attempt(itemId, batch.map((entry) => entry.report));
      if (typeof outcome === "object") {
        this.schedule = rateLimited(this.schedule, itemId, this.now(), outcome.retryAfterMs);
        return;
      }
      if (outcome === "retry") {
        this.schedule = failed(this.schedule, itemId, this.now());
        return;
      }
      if (outcome === "refused") {
        this.droppedCount += batch.length;
        this.onDropped(batch.length);
      }
      await this.forget(batch);
    }
    this.schedule = delivered(this.schedule, itemId);
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
    const wakeAt = nextWake(this.schedule, this.now());
    if (wakeAt === undefined) return;
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.round(false);
    }, Math.max(0, wakeAt - this.now()));
  }
}
