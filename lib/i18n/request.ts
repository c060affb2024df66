import "server-only";
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { getConfig } from "@/lib/env";
import { formats } from "@/lib/i18n/formats";
import { LOCALE_COOKIE, TIME_ZONE_COOKIE } from "@/lib/i18n/locales";
import { resolveLocale, resolveTimeZone } from "@/lib/i18n/resolve-locale";

/**
 * next-intl's per-request configuration (next.config.mjs points the plugin here). No locale in the URL: the
 * language menu's cookie, then Accept-Language, then APP_DEFAULT_LOCALE. Dates use the browser's time zone once it
 * has reported it, UTC until then; `now` is fixed per request so relative times render the same on both sides.
 */
export default getRequestConfig(async () => {
  // Request data first: a build-time render bails out here, before the configuration (which needs secrets) is read.
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const locale = resolveLocale({
    cookie: cookieStore.get(LOCALE_COOKIE)?.value,
    acceptLanguage: headerList.get("accept-language"),
    fallback: getConfig().defaultLocale,
  });
  return {
    locale,
    messages: (await import(`../../messages/${locale}.json`)).default,
    timeZone: resolveTimeZone(cookieStore.get(TIME_ZONE_COOKIE)?.value),
    now: new Date(),
    formats,
  };
});
