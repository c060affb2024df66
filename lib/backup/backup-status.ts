import "server-only";

/** The newest verified backup this process knows of, and the last failure after it, for the operator overview. */
export type BackupStatus = {
  configured: boolean;
  scheduled: boolean;
  latest?: { id: string; createdAt: string; sizeBytes: number };
  /** The last failure, when it is newer than `latest`. */
  failure?: { at: string; message: string };
  running: boolean;
};

const STATUS_KEY = Symbol.for("esign.backupStatus");

// On globalThis: the scheduler (instrumentation) and the operator page are in different bundles of one process.
function state(): BackupStatus {
  const g = globalThis as typeof globalThis & { [STATUS_KEY]?: BackupStatus };
  g[STATUS_KEY] ??= { configured: false, scheduled: false, running: false };
  return g[STATUS_KEY];
}

export function getBackupStatus(): Readonly<BackupStatus> {
  return state();
}

export function updateBackupStatus(change: Partial<BackupStatus>): void {
  Object.assign(state(), change);
}
