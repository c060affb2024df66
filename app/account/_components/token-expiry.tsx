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
 * none either: its messages match `=1` exactly and print the number as it is (`{minutes}`, not `#`), where a
 * `one` case and `#` built the page's first `Intl.PluralRules` and `Intl.NumberFormat` during the load.
 */
export function TokenExpiry({ expiresAt, formatted }: { expiresAt: number | null; formatted: string | null }) {
  const t = useTranslations("token");
  const now = useNowSeconds();
  if (expiresAt === null) return <>{t("unknown")}</>;
  if (now === null) return <time dateTime={new Date(expiresAt * 1000).toISOString()}>{formatted}</time>;
  const seconds = expiresAt - now;
  if (seconds <= 0) return <>{t("expired")}</>;
  if (seconds < 120) return <>{t("inSeconds", { seconds })}</>;
  return <>{t("inMinutes", { minutes: Math.round(seconds / 60) })}</>;
}
