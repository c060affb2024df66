import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanDatabases } from "@/e2e/database-scan";

const SAS = /[?&]sig=(?!\[redacted\])[^&\s"']{8,}/;
const TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz";
const folders: string[] = [];

/** A PGlite-like folder: files of binary page bytes, one of them holding `text` between NULs when given. */
function folder(text?: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "database-scan-test-"));
  folders.push(dir);
  mkdirSync(path.join(dir, "base", "5"), { recursive: true });
  const page = Buffer.alloc(8192, 0);
  page.write("pg_catalog relname relkind", 100, "latin1");
  writeFileSync(path.join(dir, "base", "5", "1259"), page);
  const row = Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(text ?? "Contract.pdf", "latin1"), Buffer.from([0, 0xff])]);
  writeFileSync(path.join(dir, "base", "5", "16384"), Buffer.concat([page, row, page]));
  return dir;
}

const scan = (databaseDirs: string[], secrets = [TOKEN, "partner-app-secret", "a secret with spaces"]) =>
  scanDatabases({ logDir: "/nonexistent", databaseDirs, secrets, patterns: [["a SAS signature", SAS]] });

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the e2e teardown's database scan", () => {
  it("passes clean folders and counts every file, the identical ones too", () => {
    expect(scan([folder(), folder()])).toEqual({ dumps: 0, folders: 2, files: 4, mebibytes: expect.any(Number) });
  });

  it("finds a token inside page bytes, inside a longer run of token characters", () => {
    const leaking = folder(`xx${TOKEN}.more`);
    expect(() => scan([folder(), leaking])).toThrow(new RegExp(`${path.basename(leaking)}/base/5/16384 contains eyJhbG`));
  });

  it("finds a secret made of other characters, and a SAS signature", () => {
    expect(() => scan([folder("note: a secret with spaces")])).toThrow(/contains a secr…/);
    expect(() => scan([folder("https://x/blob?sv=2023&sig=AbCdEfGh12345678")])).toThrow(/contains a SAS signature/);
  });

  it("still names a leak when an identical file was searched before in another folder", () => {
    const first = folder(TOKEN);
    const second = folder(TOKEN);
    expect(() => scan([first, second])).toThrow(/contains eyJhbG/);
  });
});
