import { describe, expect, it } from "vitest";
import { parseBackupConfig } from "@/lib/backup/backup-config";
import { ConfigError, parseConfig } from "@/lib/env";

const KEY = Buffer.alloc(32, 7).toString("base64");
const production = { production: true, embedded: true };
const problemsOf = (source: Record<string, string>, context = production) => parseBackupConfig(source, context).problems;

describe("BACKUP_* settings", () => {
  it("refuses production on the embedded database without BACKUP_TARGET, naming the variable", () => {
    expect(problemsOf({})).toEqual([expect.stringMatching(/^BACKUP_TARGET is required in production with the embedded database/)]);
  });

  it("accepts BACKUP_TARGET=none in production, and needs nothing with PostgreSQL, in development or the demo", () => {
    expect(problemsOf({ BACKUP_TARGET: "none" })).toEqual([]);
    expect(parseBackupConfig({ BACKUP_TARGET: "none" }, production).config).toMatchObject({ target: undefined, declinedOnPurpose: true });
    expect(problemsOf({}, { production: true, embedded: false })).toEqual([]);
    expect(problemsOf({}, { production: false, embedded: true })).toEqual([]);
  });

  it("reads a folder, an S3 bucket with a prefix and an Azure container", () => {
    expect(parseBackupConfig({ BACKUP_TARGET: "/mnt/backups" }, production).config.target).toEqual({ kind: "folder", dir: "/mnt/backups" });
    expect(parseBackupConfig({ BACKUP_TARGET: "s3://bucket/esign/prod/", BACKUP_ENCRYPTION_KEY: KEY }, production).config.target).toEqual({ kind: "s3", bucket: "bucket", prefix: "esign/prod" });
    expect(parseBackupConfig({ BACKUP_TARGET: "azure://backups", BACKUP_ENCRYPTION_KEY: KEY }, production).config.target).toEqual({ kind: "azure", container: "backups", prefix: "" });
    expect(problemsOf({ BACKUP_TARGET: "ftp://host/x" })).toEqual([expect.stringMatching(/^BACKUP_TARGET must be/)]);
  });

  it("refuses an object store in production without a key unless BACKUP_ENCRYPTION=none", () => {
    expect(problemsOf({ BACKUP_TARGET: "s3://bucket" })).toEqual([expect.stringMatching(/^BACKUP_ENCRYPTION_KEY is required in production for an object-store BACKUP_TARGET/)]);
    expect(problemsOf({ BACKUP_TARGET: "s3://bucket", BACKUP_ENCRYPTION: "none" })).toEqual([]);
    expect(problemsOf({ BACKUP_TARGET: "/mnt/backups" })).toEqual([]);
  });

  it("takes a 32-byte key as base64 or hex, and names a bad one without echoing it", () => {
    expect(parseBackupConfig({ BACKUP_TARGET: "/b", BACKUP_ENCRYPTION_KEY: "ab".repeat(32) }, production).config.key).toHaveLength(32);
    const problems = problemsOf({ BACKUP_TARGET: "/b", BACKUP_ENCRYPTION_KEY: "too-short-secret" });
    expect(problems).toEqual([expect.stringMatching(/^BACKUP_ENCRYPTION_KEY must be 32 random bytes/)]);
    expect(problems.join()).not.toContain("too-short-secret");
    expect(problemsOf({ BACKUP_TARGET: "/b", BACKUP_ENCRYPTION_KEY: KEY, BACKUP_ENCRYPTION: "none" })).toEqual([expect.stringMatching(/contradict/)]);
  });

  it("takes cron syntax for BACKUP_SCHEDULE, and a whole BACKUP_KEEP", () => {
    expect(parseBackupConfig({ BACKUP_TARGET: "/b", BACKUP_SCHEDULE: "0 3 * * *", BACKUP_KEEP: "14" }, production).config).toMatchObject({ schedule: "0 3 * * *", keep: 14 });
    expect(problemsOf({ BACKUP_TARGET: "/b", BACKUP_SCHEDULE: "every night" })).toEqual([expect.stringMatching(/^BACKUP_SCHEDULE must be cron syntax/)]);
    expect(problemsOf({ BACKUP_TARGET: "/b", BACKUP_KEEP: "0" })).toEqual([expect.stringMatching(/^BACKUP_KEEP must be a whole number/)]);
    expect(problemsOf({ BACKUP_SCHEDULE: "0 3 * * *" }, { production: false, embedded: true })).toEqual([expect.stringMatching(/BACKUP_SCHEDULE needs BACKUP_TARGET/)]);
  });

  it("is part of the app's start-up validation, in production against the service (not the sandbox's demo)", () => {
    const source = {
      NODE_ENV: "production",
      AUTH_SECRET: "x".repeat(32),
      AUTH_URL: "https://partner.example.com",
      ESIGN_AUTH_URL: "https://auth.example.com",
      ESIGN_API_URL: "https://api.example.com",
      ESIGN_CLIENT_ID: "partner",
      ESIGN_CLIENT_SECRET: "a-real-secret",
      ESIGN_STORAGE_ORIGINS: "https://account.blob.core.windows.net",
    };
    expect(parseConfig({ ...source, ESIGN_USE_SANDBOX: "true" }).backups.target).toBeUndefined();
    expect(() => parseConfig(source)).toThrow(ConfigError);
    try {
      parseConfig(source);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^BACKUP_TARGET is required in production/)]);
    }
    expect(parseConfig({ ...source, BACKUP_TARGET: "none" }).backups.declinedOnPurpose).toBe(true);
  });
});
