"use client";
import { useHydrated } from "@/lib/use-hydrated";

const serverFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

function absolute(date: Date): string {
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function relative(date: Date): string {
  const minutes = Math.floor((Date.now() - date.getTime()) / 60_000);
  if (minutes < 2) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} h ago`;
  return absolute(date);
}

/**
 * A time in the reader's time zone (or how long ago). The server cannot know that zone, so its render and
 * hydration show UTC, and the browser's own rendering follows.
 */
export function LocalTime({ iso, style }: { iso: string; style: "absolute" | "relative" }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  const text = !hydrated ? `${serverFormat.format(date)} UTC` : style === "relative" ? relative(date) : absolute(date);
  return (
    <time dateTime={iso} title={hydrated ? absolute(date) : undefined}>
      {text}
    </time>
  );
}
