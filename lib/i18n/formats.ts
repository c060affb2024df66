import type { Formats } from "next-intl";

/**
 * Named formats, the same on the server and in the browser (both get the request's time zone): `2026年11月26日 14:07`
 * in Japanese, `November 26, 2026 at 2:07 PM` in English.
 */
export const formats = {
  dateTime: {
    dateTime: { dateStyle: "long", timeStyle: "short" },
    date: { dateStyle: "long" },
  },
} satisfies Formats;
