/**
 * When the report outbox (report-outbox.ts) sends each document's reports: its states and the moves between them,
 * as pure functions of the schedule and the time, so each is tested on its own. The outbox does the I/O (the store,
 * the requests, the timer) and asks this module what to do next.
 */
import { MIN_RATE_LIMIT_WAIT_MS } from "@/lib/api-client";

/** Waits between one document's delivery attempts while the app does not take them; the last one repeats. */
export const OUTBOX_RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000] as const;

/**
 * How many documents' requests may be on their way at once. They are `keepalive` requests (a page being closed
 * still sends its last report), whose bodies a browser caps at 64 KiB in flight together: three of at most
 * 16 KiB leave room for the page's other keepalive requests.
 */
export const OUTBOX_PARALLEL_DOCUMENTS = 3;

/** One document with reports waiting or on their way; `failures`: attempts in a row the app did not take. */
export type DocumentState =
  /** Goes at a free slot once `dueAt` has come (0: at once); a new report of it makes it due at once. */
  | { status: "waiting"; failures: number; dueAt: number }
  /** flush() asked for it (page load, `online`): goes at the next free slot, whatever its wait. */
  | { status: "flushed"; failures: number }
  /** Its reports are on their way; `flushed`: flush() asked for it meanwhile, so it goes again at once after. */
  | { status: "sending"; failures: number; flushed: boolean };

export type Schedule = {
  /** By document id, in the order of their oldest waiting report. */
  readonly documents: ReadonlyMap<string, DocumentState>;
  /** Nothing is sent before this time (ms): the app answered 429 with `Retry-After`. */
  readonly pausedUntil: number;
};

export const EMPTY_SCHEDULE: Schedule = { documents: new Map(), pausedUntil: 0 };

const withDocument = (schedule: Schedule, itemId: string, state: DocumentState): Schedule => ({
  ...schedule,
  documents: new Map(schedule.documents).set(itemId, state),
});

/** Once a request is over, a document flushed meanwhile goes again at once; any other waits until `dueAt`. */
const afterSending = (state: DocumentState, failures: number, dueAt: number): DocumentState =>
  state.status === "sending" && state.flushed ? { status: "flushed", failures } : { status: "waiting", failures, dueAt };

/**
 * The documents whose reports the outbox listed, in the order of their oldest report: new ones join, due at once;
 * one with nothing left (delivered, dropped, expired) leaves unless it is being sent. `flush` marks every listed
 * document flushed.
 */
export function listed(schedule: Schedule, itemIds: readonly string[], flush: boolean): Schedule {
  const documents = new Map<string, DocumentState>();
  for (const itemId of itemIds) {
    const state = schedule.documents.get(itemId) ?? { status: "waiting", failures: 0, dueAt: 0 };
    if (!flush) documents.set(itemId, state);
    else documents.set(itemId, state.status === "sending" ? { ...state, flushed: true } : { status: "flushed", failures: state.failures });
  }
  for (const [itemId, state] of schedule.documents) {
    if (state.status === "sending" && !documents.has(itemId)) documents.set(itemId, { ...state, flushed: false });
  }
  return { ...schedule, documents };
}

/** A new report of `itemId`: a document waiting out its failures goes at once (its failure count kept). */
export function reported(schedule: Schedule, itemId: string, now: number): Schedule {
  const state = schedule.documents.get(itemId);
  return state?.status === "waiting" ? withDocument(schedule, itemId, { ...state, dueAt: now }) : schedule;
}

/**
 * The documents to start now, at most the free slots' worth: none before a 429's wait is over; else those flushed
 * or due, the ones that never failed first (a failing document goes last), then by their oldest report.
 */
export function dueDocuments(schedule: Schedule, now: number): string[] {
  if (now < schedule.pausedUntil) return [];
  const states = [...schedule.documents];
  const free = OUTBOX_PARALLEL_DOCUMENTS - states.filter(([, state]) => state.status === "sending").length;
  return states
    .filter(([, state]) => state.status === "flushed" || (state.status === "waiting" && state.dueAt <= now))
    .sort(([, a], [, b]) => a.failures - b.failures)
    .slice(0, Math.max(0, free))
    .map(([itemId]) => itemId);
}

/** `itemId`'s reports go: never two requests of one document at once. */
export function started(schedule: Schedule, itemId: string): Schedule {
  const state = schedule.documents.get(itemId);
  if (!state || state.status === "sending") throw new Error(`document ${itemId} cannot start: ${state?.status ?? "not listed"}`);
  return withDocument(schedule, itemId, { status: "sending", failures: state.failures, flushed: false });
}

/** Every report of `itemId` was taken or refused for good: its failures are forgotten. */
export function delivered(schedule: Schedule, itemId: string): Schedule {
  const state = schedule.documents.get(itemId);
  return state ? withDocument(schedule, itemId, afterSending(state, 0, 0)) : schedule;
}

/** The app did not take `itemId`'s reports (5xx, unreachable, timed out, the send threw): it waits 2 s, 5 s, 15 s … */
export function failed(schedule: Schedule, itemId: string, now: number): Schedule {
  const state = schedule.documents.get(itemId);
  if (!state) return schedule;
  const failures = state.failures + 1;
  const delay = OUTBOX_RETRY_DELAYS_MS[Math.min(failures, OUTBOX_RETRY_DELAYS_MS.length) - 1]!;
  return withDocument(schedule, itemId, afterSending(state, failures, now + delay));
}

/**
 * A 429 for `itemId` with `Retry-After` (the user's budget is spent, so every document would get one): nothing is
 * sent until the wait (at least MIN_RATE_LIMIT_WAIT_MS) is over. It counts as no failure.
 */
export function rateLimited(schedule: Schedule, itemId: string, now: number, retryAfterMs: number): Schedule {
  const pausedUntil = Math.max(schedule.pausedUntil, now + Math.max(retryAfterMs, MIN_RATE_LIMIT_WAIT_MS));
  return held({ ...schedule, pausedUntil }, itemId);
}

/** `itemId` stops before its next request because of a 429's wait: it keeps its reports and failures until the wait is over. */
export function held(schedule: Schedule, itemId: string): Schedule {
  const state = schedule.documents.get(itemId);
  return state ? withDocument(schedule, itemId, afterSending(state, state.failures, schedule.pausedUntil)) : schedule;
}

/**
 * When a document not being sent next becomes due (not before a 429's wait is over), for the outbox's one timer;
 * undefined when none will without another event (a new report, a flush, a free slot).
 */
export function nextWake(schedule: Schedule, now: number): number | undefined {
  const idle = [...schedule.documents.values()].filter((state) => state.status !== "sending");
  const paused = now < schedule.pausedUntil;
  const dueTimes = idle.map((state) => (state.status === "waiting" ? state.dueAt : now)).filter((dueAt) => dueAt > now || paused);
  if (dueTimes.length === 0) return undefined;
  return Math.max(Math.min(...dueTimes), schedule.pausedUntil);
}
