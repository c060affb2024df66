/**
 * Calendar days (`YYYY-MM-DD`) and where they begin in a time zone: the one place the app does calendar arithmetic.
 * Days are counted on the dates themselves (UTC), so no daylight-saving change skips or doubles one.
 */

/** The years a day may be in: from the Unix epoch to the year before 9999, so the day after any of them is a 4-digit year. */
export const FIRST_YEAR = 1970;
export const LAST_YEAR = 9998;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function parts(day: string): [number, number, number] {
  return day.split("-").map(Number) as [number, number, number];
}

/** A day `YYYY-MM-DD` that exists (no 2026-02-30), in any 4-digit year. */
export function isCalendarDay(day: string): boolean {
  if (!DAY_RE.test(day)) return false;
  const [y, mo, d] = parts(day);
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Whether a calendar day's year is in FIRST_YEAR–LAST_YEAR. */
export function isWithinYears(day: string): boolean {
  const year = parts(day)[0];
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

/** `day` plus `n` calendar days. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = parts(day);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Whole calendar days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  const utc = (day: string) => {
    const [y, m, d] = parts(day);
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((utc(b) - utc(a)) / DAY_MS);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day `instant` falls on in `timeZone`. */
export function dayIn(instant: Date | number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  // en-CA writes dates as YYYY-MM-DD.
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  return format.format(instant);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    clockFormats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, Number(part.value)])) as Record<string, number>;
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(instant / 1000) * 1000;
}

/**
 * The first instant of `day` in `timeZone`: its local midnight, the earlier one where a clock set back at midnight
 * shows it twice, and the moment the clock jumps where daylight saving starts at midnight and skips it (America/Santiago
 * on 2026-09-06 begins at 01:00 local, 04:00Z).
 */
export function startOfDay(day: string, timeZone: string): Date {
  const [y, m, d] = parts(day);
  const midnight = Date.UTC(y, m - 1, d);
  // The offsets in effect around that day; a midnight exists under one of them if the clock then agrees.
  const offsets = [...new Set([-DAY_MS, 0, DAY_MS].map((shift) => offsetAt(midnight + shift, timeZone)))];
  const exact = offsets.map((offset) => midnight - offset).filter((instant) => offsetAt(instant, timeZone) === midnight - instant);
  if (exact.length > 0) return new Date(Math.min(...exact));
  // Skipped: the day begins when the clock jumps, between the instants midnight would have been under each offset.
  let before = Math.min(...offsets.map((offset) => midnight - offset));
  let after = Math.max(...offsets.map((offset) => midnight - offset));
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (dayIn(mid, timeZone) >= day) after = mid;
    else before = mid;
  }
  return new Date(after);
}

/** The calendar days from `from` to `to` (exclusive) in `timeZone`, in order. */
export function daysOfPeriod(from: Date, to: Date, timeZone: string): string[] {
  if (to.getTime() <= from.getTime()) return [];
  const last = dayIn(to.getTime() - 1, timeZone);
  const days: string[] = [];
  for (let day = dayIn(from, timeZone); day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}
