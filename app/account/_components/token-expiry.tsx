"use client";
import { useSyncExternalStore } from "react";
import { useTranslations } from "next-intl";

function subscribeToSeconds(onTick: () => void) {
  const id = setInterval(onTick, 1000);
  return () => clearInterval(id);
}

/** The current time to the second in the browser; null while server-rendering, so hydration matches. */
function useNowSeconds(): number | null {
  return useSyncExternalStore(subscribeToSeconds, () => Math.floor(Date.now() / 1000), () => null);
}

/**
 * When the access token expires, counting down live: the only part of the session panel that runs in the browser.
 * The server's render (and hydration) show the time itself, `formatted` by the server in the request's time zone,
 * so hydration builds no `Intl` formatter (docs/page-weight.md). The countdown that takes over right after it builds
 * none either: "1 or not" is decided here and its messages print the number as it is (`{seconds}`), where an ICU
 * plural (`{seconds, plural, one {# second} …}`) built the page's first `Intl.PluralRules` (for any count but an
 * exact `=` case) and `Intl.NumberFormat` (`#`) during the load. English and Japanese need no more than that; a
 * language whose plural forms do would need its ICU plural back.
 */
export function TokenExpiry({ expiresAt, formatted }: { expiresAt: number | null; formatted: string | null }) {
  const t = useTranslations("token");
  const now = useNowSeconds();
  if (expiresAt === null) return <>{t("unknown")}</>;
  if (now === null) return <time dateTime={new Date(expiresAt * 1000).toISOString()}>{formatted}</time>;
  const seconds = expiresAt - now;
  if (seconds <= 0) return <>{t("expired")}</>;
  if (seconds < 120) return <>{seconds === 1 ? t("inOneSecond") : t("inSeconds", { seconds })}</>;
  // Two minutes or more: never "1 minute".
  return <>{t("inMinutes", { minutes: Math.round(seconds / 60) })}</>;
}
