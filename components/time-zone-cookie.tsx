"use client";
import { useEffect } from "react";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/locales";

/**
 * Tells the server the browser's time zone (a cookie, a year), so that later pages render dates in it on the server
 * and in the browser alike. Until then both sides use UTC: the same text, so no hydration mismatch.
 */
export function TimeZoneCookie({ known }: { known: string }) {
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && zone !== known) {
      document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax${location.protocol === "https:" ? "; secure" : ""}`;
    }
  }, [known]);
  return null;
}
