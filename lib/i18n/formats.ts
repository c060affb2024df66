import type { Formats } from "next-intl";

/**
 * Named formats, the same on the server and in the browser (both get the request's time zone): `2026年11月26日 14:07`
 * in Japanese, `November 26, 2026 at 2:07 PM` in English; `dateTimeSeconds` adds the seconds, for events that happen
 * within the same minute (a document's audit trail). `percent` takes a fraction (0.24 → `24%` in both languages).
 */
export const formats = {
  dateTime: {
    dateTime: { dateStyle: "long", timeStyle: "short" },
    dateTimeSeconds: { dateStyle: "long", timeStyle: "medium" },
    date: { dateStyle: "long" },
  },
  number: {
    percent: { style: "percent", maximumFractionDigits: 0 },
  },
} satisfies Formats;
