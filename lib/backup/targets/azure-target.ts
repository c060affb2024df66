import "server-only";
import { BlobServiceClient, type ContainerClient } from "@azure/storage-blob";
import { BackupError } from "@/lib/backup/backup-error";
import { targetFailure, type BackupTarget } from "@/lib/backup/targets/backup-target";

const isMissing = (error: unknown) => (error as { statusCode?: number }).statusCode === 404;

/**
 * An Azure Blob container (`azure://container/prefix`), reached with the Azure SDK's usual setting,
 * AZURE_STORAGE_CONNECTION_STRING (an account key or a SAS; Azurite's development string for tests).
 */
export class AzureTarget implements BackupTarget {
  readonly description: string;
  private readonly container: ContainerClient;

  constructor(
    readonly containerName: string,
    readonly prefix: string,
    env: Record<string, string | undefined> = process.env,
  ) {
    this.description = `azure://${containerName}${prefix ? `/${prefix}` : ""}`;
    const connection = env.AZURE_STORAGE_CONNECTION_STRING;
    if (!connection) throw new BackupError("NOT_CONFIGURED", `The backup target ${this.description} needs AZURE_STORAGE_CONNECTION_STRING.`);
    // Two tries and a bounded wait: a target that does not answer fails the backup rather than holding it.
    this.container = BlobServiceClient.fromConnectionString(connection, { retryOptions: { maxTries: 2, tryTimeoutInMs: 60_000 } }).getContainerClient(containerName);
  }

  private blob(name: string) {
    return this.container.getBlockBlobClient(this.prefix ? `${this.prefix}/${name}` : name);
  }

  async upload(name: string, file: string): Promise<void> {
    try {
      await this.blob(name).uploadFile(file);
    } catch (error) {
      throw targetFailure(this.description, error, `write ${name}`);
    }
  }

  async writeBytes(name: string, bytes: Buffer): Promise<void> {
    try {
      await this.blob(name).uploadData(bytes);
    } catch (error) {
      throw targetFailure(this.description, error, `write ${name}`);
    }
  }

  async download(name: string, file: string): Promise<void> {
    try {
      await this.blob(name).downloadToFile(file);
    } catch (error) {
      if (isMissing(error)) throw new BackupError("NOT_FOUND", `There is no backup ${name} in ${this.description}.`);
      throw targetFailure(this.description, error, `read ${name}`);
    }
  }

  async readBytes(name: string): Promise<Buffer | undefined> {
    try {
      return await this.blob(name).downloadToBuffer();
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw targetFailure(this.description, error, `read ${name}`);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const base = `${this.prefix ? `${this.prefix}/` : ""}${prefix}`;
    const names: string[] = [];
    try {
      for await (const item of this.container.listBlobsByHierarchy("/", { prefix: base })) {
        if (item.kind === "blob") names.push(item.name.slice(base.length));
      }
    } catch (error) {
      throw targetFailure(this.description, error, "list its backups");
    }
    return names;
  }

  async remove(name: string): Promise<void> {
    try {
      await this.blob(name).deleteIfExists();
    } catch (error) {
      throw targetFailure(this.description, error, `remove ${name}`);
    }
  }
}
