import { getFormatter, getTimeZone, getTranslations } from "next-intl/server";
import { Alert } from "@/components/ui/alert";
import { getBackupStatus } from "@/lib/backup/backup-status";
import { getConfig } from "@/lib/env";

/** A verified backup older than this is a warning: the EsignBackupStale alert's threshold. */
const STALE_MS = 26 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * One line on the operator overview about backups of the embedded database (docs/backups.md): "Last backup 03:00
 * today, 12.4 MB, verified", or a warning in words when the last one failed, is too old, or there are none.
 */
export async function BackupStatusLine({ now = new Date() }: { now?: Date }) {
  const [t, format, timeZone] = await Promise.all([getTranslations("operator.backup"), getFormatter(), getTimeZone()]);
  const { backups, database } = getConfig();
  const status = getBackupStatus();
  const dayOf = (date: Date) => format.dateTime(date, { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const when = (iso: string) => {
    const date = new Date(iso);
    // A 24-hour clock in every language: "03:00 today".
    const time = format.dateTime(date, { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    if (dayOf(date) === dayOf(now)) return t("today", { time });
    if (dayOf(date) === dayOf(new Date(now.getTime() - DAY_MS))) return t("yesterday", { time });
    return t("earlier", { date: dayOf(date), time });
  };
  const line = (text: string) => (
    <p className="text-sm text-slate-700" data-testid="operator-backup-status">
      {text}
    </p>
  );
  if (database.url) return line(t("postgres"));
  if (!backups.target) {
    return backups.declinedOnPurpose ? line(t("declined")) : (
      <Alert tone="warning" title={t("notConfiguredTitle")} data-testid="operator-backup-status">
        {t("notConfiguredBody")}
      </Alert>
    );
  }
  const { latest, failure } = status;
  if (failure && (!latest || failure.at > latest.createdAt)) {
    return (
      <Alert tone="warning" title={t("failedTitle")} data-testid="operator-backup-status">
        {latest ? t("failedBody", { when: when(failure.at), last: when(latest.createdAt) }) : t("failedNoneBody", { when: when(failure.at) })}
      </Alert>
    );
  }
  if (!latest) return line(t("noneYet"));
  if (now.getTime() - new Date(latest.createdAt).getTime() > STALE_MS) {
    return (
      <Alert tone="warning" title={t("staleTitle")} data-testid="operator-backup-status">
        {t("staleBody", { last: when(latest.createdAt) })}
      </Alert>
    );
  }
  return line(t("latest", { when: when(latest.createdAt), size: format.number(latest.sizeBytes / 1_000_000, { maximumFractionDigits: 1 }) }));
}
