import "server-only";
import type { BackupTargetConfig } from "@/lib/backup/backup-config";
import { AzureTarget } from "@/lib/backup/targets/azure-target";
import type { BackupTarget } from "@/lib/backup/targets/backup-target";
import { FolderTarget } from "@/lib/backup/targets/folder-target";
import { S3Target } from "@/lib/backup/targets/s3-target";

/** The target BACKUP_TARGET names, with its SDK configured from the environment. */
export function openBackupTarget(config: BackupTargetConfig): BackupTarget {
  switch (config.kind) {
    case "folder":
      return new FolderTarget(config.dir);
    case "s3":
      return new S3Target(config.bucket, config.prefix);
    case "azure":
      return new AzureTarget(config.container, config.prefix);
  }
}
