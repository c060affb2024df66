import type { StuckCursor } from "@/lib/operators/types";

/** The stuck list's thresholds, in minutes, as the page's query gives them: `created` (never uploaded) and `silent`. */
export const THRESHOLD_CHOICES = [15, 30, 60, 240, 1440] as const;
export const DEFAULT_NEVER_UPLOADED_MINUTES = 60;
export const DEFAULT_SILENT_MINUTES = 30;
/** A week: anything older is for the overview's periods. */
export const MAX_THRESHOLD_MINUTES = 7 * 24 * 60;

export type StuckParams = { createdMinutes: number; silentMinutes: number; now: Date | null; after: StuckCursor | null };
export type StuckParamError = { field: "created" | "silent" | "now" | "after" };

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

function minutes(raw: string, fallback: number): number | null {
  if (!raw) return fallback;
  // Full-width digits (１２０) as typed with a Japanese IME read as the same number.
  const text = raw.normalize("NFKC");
  if (!/^\d{1,6}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 && value <= MAX_THRESHOLD_MINUTES ? value : null;
}

/** A page's end as its "next" link carries it: `<microseconds>.<event id>`. */
export const stuckCursorParam = (cursor: StuckCursor) => `${cursor.atMicros}.${cursor.eventId}`;

function cursor(raw: string): StuckCursor | null {
  const match = /^(\d{1,16})\.(\d{1,15})$/.exec(raw);
  return match ? { atMicros: Number(match[1]), eventId: Number(match[2]) } : null;
}

/**
 * Reads `?created=&silent=` (whole minutes, 1 to a week; defaults 60 and 30), `?after=` (where the previous page
 * ended) and, only where `allowNow` (the app runs
 * against the sandbox), `?now=` (an ISO time the list is computed at, so the e2e shows a document turning stuck without
 * waiting an hour). Elsewhere `now` is refused by name, so a deployment has no clock anyone can move.
 */
export function readStuckParams(query: Record<string, string | string[] | undefined>, allowNow: boolean): { params: StuckParams; errors: StuckParamError[] } {
  const errors: StuckParamError[] = [];
  const createdMinutes = minutes(single(query.created), DEFAULT_NEVER_UPLOADED_MINUTES);
  const silentMinutes = minutes(single(query.silent), DEFAULT_SILENT_MINUTES);
  if (createdMinutes === null) errors.push({ field: "created" });
  if (silentMinutes === null) errors.push({ field: "silent" });
  let now: Date | null = null;
  const rawNow = single(query.now);
  if (rawNow) {
    const parsed = new Date(rawNow);
    if (!allowNow || !/^\d{4}-\d{2}-\d{2}T/.test(rawNow) || Number.isNaN(parsed.getTime())) errors.push({ field: "now" });
    else now = parsed;
  }
  const rawAfter = single(query.after);
  const after = rawAfter ? cursor(rawAfter) : null;
  if (rawAfter && !after) errors.push({ field: "after" });
  return {
    params: { createdMinutes: createdMinutes ?? DEFAULT_NEVER_UPLOADED_MINUTES, silentMinutes: silentMinutes ?? DEFAULT_SILENT_MINUTES, now, after },
    errors,
  };
}
