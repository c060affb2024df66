import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { BlobServiceClient } from "@azure/storage-blob";
import S3rver from "s3rver";

/** A store for backup tests: the environment the app's SDKs read to reach it, and how to stop it. */
export type RunningStore = { env: Record<string, string>; stop(): Promise<void> };

/** s3rver's fixed development credentials (it checks signatures made with them). */
export const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

/** s3rver on 127.0.0.1:`port`, keeping its objects in `dir`, with `bucket` made. */
export async function startS3rver(port: number, dir: string, bucket: string): Promise<RunningStore> {
  const server = new S3rver({ address: "127.0.0.1", port, directory: dir, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  await server.run();
  return {
    env: { ...S3RVER_CREDENTIALS, AWS_REGION: "us-east-1", AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}` },
    stop: () => server.close(),
  };
}

/** Azurite's well-known development account (public: it is in Azurite's documentation). */
const AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export function azuriteConnectionString(port: number): string {
  return `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${AZURITE_KEY};BlobEndpoint=http://127.0.0.1:${port}/devstoreaccount1;`;
}

/** Azurite's blob service on 127.0.0.1:`port`, keeping its blobs in `dir`, with `container` made. */
export async function startAzurite(port: number, dir: string, container: string): Promise<RunningStore> {
  const entry = path.join(path.dirname(createRequire(import.meta.url).resolve("azurite/package.json")), "dist/src/blob/main.js");
  const child = spawn(process.execPath, [entry, "--blobHost", "127.0.0.1", "--blobPort", String(port), "--location", dir, "--silent", "--disableTelemetry", "--skipApiVersionCheck"], { stdio: "ignore" });
  const connection = azuriteConnectionString(port);
  const client = BlobServiceClient.fromConnectionString(connection, { retryOptions: { maxTries: 1 } }).getContainerClient(container);
  for (let tries = 0; ; tries++) {
    try {
      await client.createIfNotExists();
      break;
    } catch (error) {
      if (tries > 100 || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    env: { AZURE_STORAGE_CONNECTION_STRING: connection },
    stop: async () => {
      child.kill("SIGINT");
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)));
    },
  };
}
