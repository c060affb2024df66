import { FALLBACK_TIME_ZONE, isLocale, LOCALE_CODES, type Locale } from "@/lib/i18n/locales";

/**
 * The request's languages from `Accept-Language`, best first: `ja-JP,ja;q=0.9,en;q=0.8` → ["ja-JP", "ja", "en"].
 * Entries with q=0 are refused languages and are dropped.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The first requested language the app has, matched on the primary subtag (`ja-JP` → `ja`). */
export function matchAcceptLanguage(header: string | null | undefined): Locale | undefined {
  for (const tag of parseAcceptLanguage(header)) {
    const primary = tag.toLowerCase().split("-")[0];
    const match = LOCALE_CODES.find((code) => code === primary);
    if (match) return match;
  }
  return undefined;
}

/** The user's choice (the language menu's cookie), then `Accept-Language`, then the deployment's default. */
export function resolveLocale(input: { cookie: string | undefined; acceptLanguage: string | null; fallback: Locale }): Locale {
  if (isLocale(input.cookie)) return input.cookie;
  return matchAcceptLanguage(input.acceptLanguage) ?? input.fallback;
}

/** The time zone the browser reported, if it is one this runtime knows; UTC until then. */
export function resolveTimeZone(cookie: string | undefined): string {
  if (!cookie || cookie.length > 64) return FALLBACK_TIME_ZONE;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: cookie }).resolvedOptions().timeZone;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
}
