import "server-only";
import type { NextRequest } from "next/server";
import { createTranslator, type Messages, type NamespaceKeys, type NestedKeyOf } from "next-intl";
import { getConfig } from "@/lib/env";
import { LOCALE_COOKIE, type Locale } from "@/lib/i18n/locales";
import { resolveLocale } from "@/lib/i18n/resolve-locale";

/**
 * A translator for the pages the app writes itself, outside React (the "We'll be right back" page from proxy.ts, the
 * "Signing you in again" page): the language chosen as for every page — the menu's cookie, Accept-Language, then
 * APP_DEFAULT_LOCALE.
 */
export async function requestTranslator<N extends NamespaceKeys<Messages, NestedKeyOf<Messages>>>(req: NextRequest, namespace: N) {
  const locale: Locale = resolveLocale({
    cookie: req.cookies.get(LOCALE_COOKIE)?.value,
    acceptLanguage: req.headers.get("accept-language"),
    fallback: getConfig().defaultLocale,
  });
  const messages = ((await import(`../../messages/${locale}.json`)) as { default: Messages }).default;
  return { locale, t: createTranslator({ locale, messages, namespace }) };
}
