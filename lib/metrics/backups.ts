import "server-only";
import { counter, gauge } from "@/lib/metrics/registry";

/** A verified backup: when its snapshot was taken, how long it took with its verification, and its size. */
export function recordBackupSuccess(at: Date, seconds: number, sizeBytes: number): void {
  setLastBackupSuccess(at);
  gauge({ name: "esign_backup_last_duration_seconds", help: "How long the last verified backup took, its verification included" }).set(seconds);
  gauge({ name: "esign_backup_last_size_bytes", help: "Size of the last verified backup file" }).set(sizeBytes);
}

/** The time of the newest verified backup (or, at start, when none is known yet, the time the schedule began). */
export function setLastBackupSuccess(at: Date): void {
  gauge({ name: "esign_backup_last_success_timestamp_seconds", help: "Unix time of the newest verified backup of the embedded database" }).set(at.getTime() / 1000);
}

/** A backup that failed (snapshot, verification or upload); `stage` is a fixed name. */
export function recordBackupFailure(stage: "snapshot" | "verify" | "upload"): void {
  counter({ name: "esign_backup_failures_total", help: "Backups of the embedded database that failed, by stage", labelNames: ["stage"] as const }).inc({ stage });
}

/** 1 while BACKUP_SCHEDULE is set on an instance that holds the embedded database: the stale-backup alert's condition. */
export function recordBackupScheduled(scheduled: boolean): void {
  gauge({ name: "esign_backup_schedule_enabled", help: "1 when this instance runs scheduled backups (BACKUP_SCHEDULE)" }).set(scheduled ? 1 : 0);
}
