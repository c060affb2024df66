import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatBytes, formatDuration } from "@/lib/upload/format";
import { createMd5Streamer, hashFileMd5, md5Base64ToHex } from "@/lib/upload/md5";
import { createProgressTracker } from "@/lib/upload/progress-tracker";
import { assertAllowedUploadEndpoint } from "@/lib/upload/storage-endpoint";
import { UploadError } from "@/lib/upload/upload-error";

const allowed = ["https://acct.blob.core.windows.net", "http://127.0.0.1:4002"];

function refusal(endpoint: string): string | undefined {
  try {
    assertAllowedUploadEndpoint(endpoint, allowed);
    return undefined;
  } catch (error) {
    return error instanceof UploadError ? error.code : "unexpected";
  }
}

describe("assertAllowedUploadEndpoint", () => {
  it("accepts an endpoint on exactly a configured origin, https or the configured http sandbox", () => {
    expect(assertAllowedUploadEndpoint("https://acct.blob.core.windows.net/c/f.pdf?sig=x", allowed).pathname).toBe("/c/f.pdf");
    expect(refusal("http://127.0.0.1:4002/devstoreaccount1/documents/f.pdf?sig=x")).toBeUndefined();
  });

  it.each([
    ["another host", "https://evil.example.net/c/f.pdf?sig=x"],
    ["a look-alike subdomain", "https://acct.blob.core.windows.net.evil.example/c/f.pdf"],
    ["http where https is configured", "http://acct.blob.core.windows.net/c/f.pdf"],
    ["https where only http is configured", "https://127.0.0.1:4002/c/f.pdf"],
    ["another port of the sandbox host", "http://127.0.0.1:4003/c/f.pdf"],
    ["credentials in the URL", "https://user:pw@acct.blob.core.windows.net/c/f.pdf"],
    ["something that is not a URL", "not a url"],
    ["a javascript: URL", "javascript:alert(1)"],
  ])("refuses %s", (_, endpoint) => {
    expect(refusal(endpoint)).toBe("UPLOAD_HOST_NOT_ALLOWED");
  });
});

describe("createProgressTracker", () => {
  it("never reports less than the furthest point reached, even when a retry restarts from zero", () => {
    const tracker = createProgressTracker(1000);
    expect(tracker.update(600, 0).percent).toBe(60);
    expect(tracker.update(100, 500).percent).toBe(60);
    expect(tracker.update(1000, 1000).percent).toBe(100);
  });

  it("measures speed over the last seconds and derives the time left from it", () => {
    const tracker = createProgressTracker(10_000_000);
    tracker.update(0, 0);
    tracker.update(1_000_000, 1000);
    const progress = tracker.update(2_000_000, 2000);
    expect(progress.bytesPerSecond).toBe(1_000_000);
    expect(progress.secondsLeft).toBe(8);
    // Old samples fall out of the window: a slowdown shows within a few seconds.
    tracker.update(2_100_000, 6000);
    const slowed = tracker.update(2_200_000, 7000);
    expect(slowed.bytesPerSecond).toBeLessThan(200_000);
  });

  it("reports no speed until it has enough time to measure, and 100 % for an empty file", () => {
    expect(createProgressTracker(100).update(10, 0).bytesPerSecond).toBeNull();
    expect(createProgressTracker(0).update(0, 0).percent).toBe(100);
  });
});

describe("hashFileMd5", () => {
  it("matches node's MD5 for a 17 MiB file read through the reused buffer, reporting progress every 8 MiB", async () => {
    const bytes = new Uint8Array(17 * 1024 * 1024 + 5).map((_, i) => (i * 31) % 251);
    const progress: number[] = [];
    const md5 = await hashFileMd5(new Blob([bytes]), (n) => progress.push(n));
    const expected = createHash("md5").update(bytes).digest();
    expect(md5.hex).toBe(expected.toString("hex"));
    expect(md5.base64).toBe(expected.toString("base64"));
    expect(progress).toEqual([8 * 1024 * 1024, 16 * 1024 * 1024, bytes.length]);
  });

  it("hashes block after block with one streamer, also after a read that failed", async () => {
    const hash = await createMd5Streamer();
    const md5Of = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("hex");
    const blocks = [3 * 1024 * 1024 + 1, 0, 1024 * 1024, 17].map((size, n) => new Uint8Array(size).map((_, i) => (i * 7 + n) % 253));
    for (const block of blocks) expect((await hash(new Blob([block]))).hex).toBe(md5Of(block));

    // A stream that errors takes the read buffer with it; the next block still hashes right.
    const broken = { size: 10, stream: () => new ReadableStream({ type: "bytes", pull: (controller) => controller.error(new Error("disk gone")) }) } as unknown as Blob;
    await expect(hash(broken)).rejects.toThrow("disk gone");
    expect((await hash(new Blob([blocks[0]!]))).hex).toBe(md5Of(blocks[0]!));
  });

  it("converts storage's base64 MD5 to the hex that md5sum prints", () => {
    expect(md5Base64ToHex("1B2M2Y8AsgTpgAmY7PhCfg==")).toBe("d41d8cd98f00b204e9800998ecf8427e");
  });
});

describe("format", () => {
  it("shows sizes in binary units and durations in words", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(200 * 1024 * 1024)).toBe("200 MiB");
    expect(formatBytes(1023)).toBe("1,023 B");
    expect(formatBytes(1536, "ja")).toBe("1.5 KiB");
    expect(formatDuration(42)).toBe("42 sec");
    expect(formatDuration(75)).toBe("1 min 15 sec");
    expect(formatDuration(3720)).toBe("1 hr 2 min");
    expect(formatDuration(75, "ja")).toBe("1 分 15 秒");
    expect(formatDuration(3720, "ja")).toBe("1 時間 2 分");
  });
});
