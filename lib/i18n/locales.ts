/**
 * The languages the app speaks. Adding one is a catalog file (messages/<code>.json, with every key of en.json)
 * and one line here; docs/languages.md says how. `name` is the language's own name, shown in the language menu.
 */
export const LOCALES = [
  { code: "en", name: "English" },
  { code: "ja", name: "日本語" },
] as const;

export type Locale = (typeof LOCALES)[number]["code"];

export const LOCALE_CODES = LOCALES.map((l) => l.code) as [Locale, ...Locale[]];

/** The user's choice from the language menu (a year; not HttpOnly-sensitive: it holds only a language code). */
export const LOCALE_COOKIE = "locale";
/** The browser's IANA time zone, written by the browser itself (components/time-zone-cookie.tsx). */
export const TIME_ZONE_COOKIE = "tz";
/** Until the browser has told us its zone, dates are shown in UTC (and say so). */
export const FALLBACK_TIME_ZONE = "UTC";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALE_CODES as readonly string[]).includes(value);
}
