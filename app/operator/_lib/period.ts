import { addDays, dayIn, daysBetween, FIRST_YEAR, isCalendarDay, isWithinYears, LAST_YEAR, startOfDay } from "@/lib/calendar-days";
import type { OperatorPeriod } from "@/lib/operators/types";

/** The periods an operator picks from; `custom` takes `from` and `to` (calendar days, both included). */
export const RANGE_CHOICES = ["today", "7d", "30d", "custom"] as const;
export type PeriodChoice = (typeof RANGE_CHOICES)[number];

/** A custom range is at most a year: the chart has a bar per day. */
export const MAX_CUSTOM_DAYS = 366;

/** What the page shows and the form keeps: the choice and the days as typed (so nothing typed is lost on an error). */
export type PeriodParams = { choice: PeriodChoice; from: string; to: string };

export type PeriodFieldError = { field: "range" | "from" | "to"; problem: "unknown" | "invalid" | "year" | "missing" | "order" | "tooLong" };

export type ResolvedPeriod =
  | { ok: true; params: PeriodParams; period: OperatorPeriod; firstDay: string; lastDay: string }
  | { ok: false; params: PeriodParams; error: PeriodFieldError };

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

/** Each problem in words, after the field's name: the export's 400 says `to must be …`. */
export const PERIOD_PROBLEMS = {
  unknown: "must be today, 7d, 30d or custom",
  invalid: "must be a calendar day, YYYY-MM-DD",
  year: `must be a day in the years ${FIRST_YEAR}–${LAST_YEAR}`,
  missing: "is required for a custom range",
  order: "must not be before from",
  tooLong: `must be at most ${MAX_CUSTOM_DAYS} days after from`,
} as const satisfies Record<PeriodFieldError["problem"], string>;

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
      if (!isWithinYears(params[field])) return { ok: false, params, error: { field, problem: "year" } };
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
