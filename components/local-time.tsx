import { useFormatter, useNow, useTranslations } from "next-intl";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * A time in the reader's language and time zone: absolute (`2026年11月26日 14:07`; with `seconds`,
 * `2026年11月26日 14:07:05`, for events that can fall within one minute), or how long ago
 * (`3 hours ago` / `3 時間前`) within the last day. The zone and "now" come from the request (next-intl's config,
 * handed to the browser), so the server's render and the browser's are the same text. Not a client component of its
 * own: rendered by a Server Component (the documents list, the audit trail) it costs the browser nothing.
 */
export function LocalTime({ iso, style, seconds = false }: { iso: string; style: "absolute" | "relative"; seconds?: boolean }) {
  const format = useFormatter();
  const now = useNow();
  const t = useTranslations("common");
  const date = new Date(iso);
  const absolute = format.dateTime(date, seconds ? "dateTimeSeconds" : "dateTime");
  const ago = now.getTime() - date.getTime();
  let text = absolute;
  if (style === "relative" && ago < DAY_MS) text = ago < 2 * MINUTE_MS ? t("justNow") : format.relativeTime(date, now);
  return (
    <time dateTime={iso} title={absolute}>
      {text}
    </time>
  );
}
