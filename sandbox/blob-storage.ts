import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  BlobSASPermissions,
  BlobServiceClient,
  StorageSharedKeyCredential,
  generateBlobSASQueryParameters,
  type ContainerClient,
} from "@azure/storage-blob";
import type { SandboxConfig } from "./config";

// Azurite's fixed development account (public, documented by Microsoft); not a secret.
export const ACCOUNT = "devstoreaccount1";
export const ACCOUNT_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
export const CONTAINER = "documents";
const READY_TIMEOUT_MS = 15_000;

export interface BlobInfo {
  exists: boolean;
  size: number | null;
  md5Base64: string | null;
  md5Hex: string | null;
}

interface SasUrl {
  url: string;
  sas: string;
}

const DATA_DIR_PREFIX = "esign-sandbox-blobs-";

/** Whether a process with this id is running (signal 0 tests without sending anything). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the data directories of sandboxes that ended without stopping (SIGKILL, a crash): each holds every
 * blob of its run, up to GiBs, and its name carries the pid of the sandbox that made it.
 */
function removeAbandonedDataDirs(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(new RegExp(`^${DATA_DIR_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (pid && pid !== process.pid && !isRunning(pid)) rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
  }
}

function azuriteEntry(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("azurite/package.json")), "dist/src/blob/main.js");
}

async function waitUntilListening(endpoint: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`azurite exited early with code ${child.exitCode}`);
    try {
      // Any HTTP answer (even 400/403) means the server is accepting requests.
      await fetch(endpoint, { signal: AbortSignal.timeout(500) });
      return;
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`azurite did not answer at ${endpoint} within ${READY_TIMEOUT_MS} ms`);
}

/** Azurite (the Azure Storage emulator) as a child process, with the sandbox's container, CORS and SAS. */
export class BlobStorage {
  private readonly credential = new StorageSharedKeyCredential(ACCOUNT, ACCOUNT_KEY);
  private readonly container: ContainerClient;
  private readonly killOnExit = () => {
    this.child?.kill("SIGKILL");
    this.removeData();
  };
  private child?: ChildProcess;
  /**
   * Where Azurite keeps blobs and staged blocks: a temp directory of this run, removed at stop. On disk, not
   * in memory: an in-memory store is capped (Azurite's default is half the RAM), and at a 1 GiB cap one
   * 1 GiB file, or a few demo uploads of large files, filled it and every later upload was refused until a
   * restart — Azurite frees deleted blobs only in a sweep every 10 minutes. Directories of sandboxes that
   * were killed before they could remove theirs are swept at the next start.
   */
  private dataDir?: string;

  private constructor(private readonly config: SandboxConfig) {
    const service = new BlobServiceClient(`http://127.0.0.1:${config.blobPort}/${ACCOUNT}`, this.credential);
    this.container = service.getContainerClient(CONTAINER);
  }

  static async start(config: SandboxConfig): Promise<BlobStorage> {
    const storage = new BlobStorage(config);
    try {
      await storage.spawn();
      await storage.configure();
    } catch (error) {
      await storage.stop();
      throw error;
    }
    return storage;
  }

  private async spawn(): Promise<void> {
    removeAbandonedDataDirs();
    this.dataDir = mkdtempSync(path.join(tmpdir(), `${DATA_DIR_PREFIX}${process.pid}-`));
    const child = spawn(
      process.execPath,
      [
        azuriteEntry(),
        "--blobHost", "127.0.0.1",
        "--blobPort", String(this.config.blobPort),
        "--location", this.dataDir,
        "--disableTelemetry",
        "--silent",
        // @azure/storage-blob 12.32 sends an API version newer than azurite 3.35 knows.
        "--skipApiVersionCheck",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    this.child = child;
    // A crash of the parent must not leave azurite holding the port.
    process.once("exit", this.killOnExit);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    try {
      await waitUntilListening(`http://127.0.0.1:${this.config.blobPort}/${ACCOUNT}?comp=list`, child);
    } catch (error) {
      throw new Error(`${(error as Error).message}${stderr ? `\n${stderr.trim()}` : ""}`, { cause: error });
    }
  }

  private async configure(): Promise<void> {
    await this.container.createIfNotExists();
    const service = new BlobServiceClient(`http://127.0.0.1:${this.config.blobPort}/${ACCOUNT}`, this.credential);
    await service.setProperties({
      cors: [
        {
          allowedOrigins: this.config.corsOrigins.join(","),
          allowedMethods: "PUT,OPTIONS,GET,HEAD",
          allowedHeaders: "content-type,content-md5,x-ms-*",
          exposedHeaders: "content-md5,etag,x-ms-*",
          maxAgeInSeconds: 3600,
        },
      ],
    });
  }

  /** Public address of a blob (without SAS), as the browser reaches it. */
  blobUrl(blobName: string): string {
    return `${this.config.blobUrl}/${ACCOUNT}/${CONTAINER}/${encodeURIComponent(blobName)}`;
  }

  /**
   * A SAS for one blob, create+write only; `expired` yields one already past its expiry, `permissions: "c"`
   * one that can create the blob in one PUT but not stage blocks (fault switches).
   */
  createUploadSas(blobName: string, expired = false, permissions: "cw" | "c" = "cw"): SasUrl {
    const now = Date.now();
    // Starting a minute in the past tolerates clock skew between the signer and the storage service.
    const startsOn = new Date(now - (expired ? 10 * 60_000 : 60_000));
    const expiresOn = new Date(expired ? now - 60_000 : now + this.config.sasTtl * 1000);
    const sas = generateBlobSASQueryParameters(
      { containerName: CONTAINER, blobName, permissions: BlobSASPermissions.parse(permissions), startsOn, expiresOn },
      this.credential,
    ).toString();
    return { url: this.blobUrl(blobName), sas };
  }

  async inspect(blobName: string): Promise<BlobInfo> {
    try {
      const properties = await this.container.getBlockBlobClient(blobName).getProperties();
      const md5 = properties.contentMD5 ? Buffer.from(properties.contentMD5) : null;
      return {
        exists: true,
        size: properties.contentLength ?? null,
        md5Base64: md5?.toString("base64") ?? null,
        md5Hex: md5?.toString("hex") ?? null,
      };
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) {
        return { exists: false, size: null, md5Base64: null, md5Hex: null };
      }
      throw error;
    }
  }

  async stop(): Promise<void> {
    process.removeListener("exit", this.killOnExit);
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timedOut = await Promise.race([exited.then(() => false), sleep(3000).then(() => true)]);
      if (timedOut) {
        child.kill("SIGKILL");
        await exited;
      }
    }
    this.removeData();
  }

  private removeData(): void {
    if (!this.dataDir) return;
    try {
      // Retries cover an Azurite that was just killed and may still be closing a file.
      rmSync(this.dataDir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Left behind: the next sandbox to start sweeps it (its pid is no longer running).
    }
    this.dataDir = undefined;
  }
}
