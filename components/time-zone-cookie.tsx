"use client";
import { useEffect } from "react";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/locales";

/** What sends the reader on to the next page, whose server render needs the zone: a press, a key, leaving. */
const BEFORE_NEXT_PAGE = ["pointerdown", "keydown", "pagehide"] as const;

/**
 * Tells the server the browser's time zone (a cookie, a year), so that later pages render dates in it on the server
 * and in the browser alike. Until then both sides use UTC: the same text, so no hydration mismatch.
 *
 * Off the page's load (docs/page-weight.md): reading the zone builds the page's first `Intl.DateTimeFormat`, which
 * loads the browser's time-zone data (tens of ms on a phone's CPU, in the middle of hydration). Only the next page
 * needs the cookie, so it is written on the reader's first press or key (before a link's request leaves), or when
 * the page is left.
 */
export function TimeZoneCookie({ known }: { known: string }) {
  useEffect(() => {
    const report = () => {
      for (const type of BEFORE_NEXT_PAGE) removeEventListener(type, report, true);
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (zone && zone !== known) {
        document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax${location.protocol === "https:" ? "; secure" : ""}`;
      }
    };
    for (const type of BEFORE_NEXT_PAGE) addEventListener(type, report, { capture: true, passive: true });
    return () => {
      for (const type of BEFORE_NEXT_PAGE) removeEventListener(type, report, true);
    };
  }, [known]);
  return null;
}
