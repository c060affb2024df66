import type { useTranslations } from "next-intl";
import { formatDuration } from "@/lib/upload/format";

type OperatorTranslator = ReturnType<typeof useTranslations<"operator">>;

/** A duration in words: milliseconds below a second (an upload that quick happens), else `1 min 15 sec` / `1 分 15 秒`. */
export function durationText(ms: number, locale: string, t: OperatorTranslator): string {
  return ms < 1000 ? t("milliseconds", { ms: Math.round(ms) }) : formatDuration(ms / 1000, locale);
}
