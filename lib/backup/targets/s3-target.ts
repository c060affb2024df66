import "server-only";
import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { BackupError } from "@/lib/backup/backup-error";
import { targetFailure, type BackupTarget } from "@/lib/backup/targets/backup-target";

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
};

/**
 * An S3-compatible bucket (`s3://bucket/prefix`): AWS S3, Cloudflare R2, MinIO. Credentials, region and endpoint
 * come from the AWS SDK's own settings (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or a profile or an instance role,
 * AWS_REGION, AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL). With an endpoint of its own (R2, MinIO, a test server) the
 * bucket is addressed in the path, which those accept, rather than as a host name.
 */
export class S3Target implements BackupTarget {
  readonly description: string;
  private readonly client: S3Client;

  constructor(
    readonly bucket: string,
    readonly prefix: string,
    env: Record<string, string | undefined> = process.env,
  ) {
    this.description = `s3://${bucket}${prefix ? `/${prefix}` : ""}`;
    const customEndpoint = Boolean(env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL);
    this.client = new S3Client({
      ...(env.AWS_REGION || env.AWS_DEFAULT_REGION ? {} : { region: "us-east-1" }),
      forcePathStyle: customEndpoint,
      // Checksums only where S3 requires them: the SDK's default sends streamed uploads with "aws-chunked" framing
      // and trailing checksums, which several S3-compatible stores do not understand (s3rver stored the framing as
      // the object's bytes). Each backup's SHA-256 is checked after download instead.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // A target that does not answer fails the backup within a bounded time instead of holding it.
      maxAttempts: 2,
    });
  }

  private key(name: string): string {
    return this.prefix ? `${this.prefix}/${name}` : name;
  }

  async upload(name: string, file: string): Promise<void> {
    try {
      const { size } = await stat(file);
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(name), Body: createReadStream(file), ContentLength: size }));
    } catch (error) {
      throw targetFailure(this.description, error, `write ${name}`);
    }
  }

  async writeBytes(name: string, bytes: Buffer): Promise<void> {
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(name), Body: bytes, ContentLength: bytes.length }));
    } catch (error) {
      throw targetFailure(this.description, error, `write ${name}`);
    }
  }

  async download(name: string, file: string): Promise<void> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
      await pipeline(answer.Body as Readable, createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      if (isMissing(error)) throw new BackupError("NOT_FOUND", `There is no backup ${name} in ${this.description}.`);
      throw targetFailure(this.description, error, `read ${name}`);
    }
  }

  async readBytes(name: string): Promise<Buffer | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw targetFailure(this.description, error, `read ${name}`);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const base = this.key(prefix);
    const names: string[] = [];
    try {
      let token: string | undefined;
      do {
        const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: base, Delimiter: "/", ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) names.push(object.Key.slice(base.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw targetFailure(this.description, error, "list its backups");
    }
    return names;
  }

  async remove(name: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
    } catch (error) {
      if (!isMissing(error)) throw targetFailure(this.description, error, `remove ${name}`);
    }
  }
}
