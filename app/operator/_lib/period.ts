import type { OperatorPeriod } from "@/lib/operators/types";

/** The periods an operator picks from; `custom` takes `from` and `to` (calendar days, both included). */
export const RANGE_CHOICES = ["today", "7d", "30d", "custom"] as const;
export type PeriodChoice = (typeof RANGE_CHOICES)[number];

/** A custom range is at most a year: the chart has a bar per day. */
export const MAX_CUSTOM_DAYS = 366;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** What the page shows and the form keeps: the choice and the days as typed (so nothing typed is lost on an error). */
export type PeriodParams = { choice: PeriodChoice; from: string; to: string };

export type PeriodFieldError = { field: "range" | "from" | "to"; problem: "unknown" | "invalid" | "missing" | "order" | "tooLong" };

export type ResolvedPeriod =
  | { ok: true; params: PeriodParams; period: OperatorPeriod; firstDay: string; lastDay: string }
  | { ok: false; params: PeriodParams; error: PeriodFieldError };

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

/** A calendar day `YYYY-MM-DD` that exists (no 2026-02-30), years 1000–9999. */
export function isCalendarDay(day: string): boolean {
  const m = DAY_RE.exec(day);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1000) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** `day` plus `n` calendar days. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Whole calendar days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  const utc = (day: string) => {
    const [y, m, d] = day.split("-").map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((utc(b) - utc(a)) / 86_400_000);
}

/** The calendar day `instant` falls on in `timeZone`. */
export function dayIn(instant: Date, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant `day` begins in `timeZone` (its local midnight). Checked twice because the offset at the UTC guess can
 * differ from the offset at local midnight when a daylight-saving change falls between them.
 */
export function startOfDay(day: string, timeZone: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  let start = guess - offsetAt(guess, timeZone);
  const again = guess - offsetAt(start, timeZone);
  if (again !== start) start = again;
  return new Date(start);
}

/**
 * The period the overview shows, from its query parameters, in the operator's time zone: today, the last 7 or 30 days
 * (today included), or a custom range of days. The default is the last 7 days. A bad parameter is named, never
 * replaced by a guess, and what was typed is handed back for the form.
 */
export function resolvePeriod(query: Record<string, string | string[] | undefined>, timeZone: string, now: Date): ResolvedPeriod {
  const rawChoice = single(query.range) || "7d";
  const params: PeriodParams = { choice: "7d", from: single(query.from).slice(0, 20), to: single(query.to).slice(0, 20) };
  if (!(RANGE_CHOICES as readonly string[]).includes(rawChoice)) return { ok: false, params, error: { field: "range", problem: "unknown" } };
  params.choice = rawChoice as PeriodChoice;
  const today = dayIn(now, timeZone);
  let firstDay: string;
  let lastDay = today;
  if (params.choice === "custom") {
    for (const field of ["from", "to"] as const) {
      if (!params[field]) return { ok: false, params, error: { field, problem: "missing" } };
      if (!isCalendarDay(params[field])) return { ok: false, params, error: { field, problem: "invalid" } };
    }
    if (daysBetween(params.from, params.to) < 0) return { ok: false, params, error: { field: "to", problem: "order" } };
    if (daysBetween(params.from, params.to) + 1 > MAX_CUSTOM_DAYS) return { ok: false, params, error: { field: "to", problem: "tooLong" } };
    firstDay = params.from;
    lastDay = params.to;
  } else {
    firstDay = addDays(today, params.choice === "today" ? 0 : params.choice === "7d" ? -6 : -29);
    // The form shows the days a preset covers, so switching to "custom" starts from them.
    params.from = firstDay;
    params.to = lastDay;
  }
  return {
    ok: true,
    params,
    firstDay,
    lastDay,
    period: { from: startOfDay(firstDay, timeZone), to: startOfDay(addDays(lastDay, 1), timeZone), timeZone },
  };
}
