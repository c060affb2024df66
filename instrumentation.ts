/** Runs once when the server starts, so a bad deployment fails loudly and early. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkConfigAtStartup } = await import("@/lib/startup-check");
  checkConfigAtStartup();
  const { installServerHooks } = await import("@/lib/server/install");
  installServerHooks();
  // Before the first request: opens the database and applies its migrations (or exits when another process holds
  // the embedded database's folder).
  const { prepareDatabaseAtStartup } = await import("@/lib/db/client");
  await prepareDatabaseAtStartup();
  const { startRetentionSweep } = await import("@/lib/documents/retention-sweep");
  startRetentionSweep();
  const { startBackupService } = await import("@/lib/backup/backup-service");
  await startBackupService();
}
