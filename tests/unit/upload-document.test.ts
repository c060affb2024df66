import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CreateDocumentResult } from "@/lib/esign/schemas";
import type { UploadMilestone } from "@/lib/documents/document-report";
import { ApiError, MIN_RATE_LIMIT_WAIT_MS, retryAfterSeconds } from "@/lib/api-client";
import { MAX_THROTTLE_WAIT_MS, UPLOAD_PAUSED, uploadDocument, type UploadStage } from "@/lib/upload/upload-document";
import { UploadQueue } from "@/lib/upload/upload-queue";
import { UploadError } from "@/lib/upload/upload-error";

const ORIGIN = "http://127.0.0.1:4002";

/** Each PUT takes the next scripted answer: an HTTP status (with optional XML body) or "network" (status 0). */
type Answer = { status: number; body?: string } | "network";
let answers: Answer[] = [];
let puts: { url: string; headers: Record<string, string>; body: unknown }[] = [];

class FakeXhr {
  status = 0;
  responseText = "";
  upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private url = "";
  private headers: Record<string, string> = {};
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getResponseHeader(name: string) {
    return name === "content-md5" && this.status === 201 ? "1B2M2Y8AsgTpgAmY7PhCfg==" : null;
  }
  abort() {
    queueMicrotask(() => this.onabort?.());
  }
  send(body: unknown) {
    puts.push({ url: this.url, headers: this.headers, body });
    const answer = answers.shift() ?? { status: 201 };
    queueMicrotask(() => {
      if (answer === "network") return this.onerror?.();
      this.upload.onprogress?.({ loaded: 5 });
      this.status = answer.status;
      this.responseText = answer.body ?? "";
      this.onload?.();
    });
  }
}

let created = 0;
function createDocument(host = ORIGIN) {
  return vi.fn(async (): Promise<CreateDocumentResult> => {
    created++;
    const fileId = `00000000-0000-4000-8000-00000000000${created}`;
    return {
      itemId: `10000000-0000-4000-8000-00000000000${created}`,
      fileId,
      container: "documents",
      sas: "sig=x",
      url: `${host}/devstoreaccount1/documents/${fileId}.pdf`,
      subdocid: 1,
      uploadendpoint: `${host}/devstoreaccount1/documents/${fileId}.pdf?sig=${created}`,
    };
  });
}

const file = new File(["hello"], "hello.pdf");
const input = { docid: null, name: "hello.pdf", doctype: "contract" };
const fakeHash = async () => ({ base64: "XUFAKrxLKna5cZ2REBfFkg==", hex: "5d41402abc4b2a76b9719d911017c592" });

function run(create = createDocument(), stages: UploadStage[] = []) {
  return uploadDocument({ file, input, allowedOrigins: [ORIGIN], createDocument: create, hashFile: fakeHash, onStage: (s) => stages.push(s) });
}

beforeEach(() => {
  answers = [];
  puts = [];
  created = 0;
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("uploadDocument", () => {
  it("PUTs the File itself with the spec's headers and our MD5, and returns the ids", async () => {
    const result = await run();
    expect(puts).toHaveLength(1);
    expect(puts[0]!.body).toBe(file);
    expect(puts[0]!.headers).toEqual({
      "content-type": "application/octet-stream",
      "x-ms-blob-type": "BlockBlob",
      "x-ms-blob-content-md5": "XUFAKrxLKna5cZ2REBfFkg==",
    });
    expect(result).toMatchObject({ itemId: "10000000-0000-4000-8000-000000000001", size: 5, md5Hex: "5d41402abc4b2a76b9719d911017c592", storageChecked: "file" });
  });

  it("after a 403 creates the document again and retries once with the fresh endpoint", async () => {
    answers = [{ status: 403, body: "<Error><Code>AuthenticationFailed</Code></Error>" }, { status: 201 }];
    const create = createDocument();
    const stages: UploadStage[] = [];
    const result = await run(create, stages);
    expect(create).toHaveBeenCalledTimes(2);
    expect(puts.map((p) => new URL(p.url).searchParams.get("sig"))).toEqual(["1", "2"]);
    expect(stages.map((s) => s.stage)).toContain("renewing");
    expect(result.itemId).toBe("10000000-0000-4000-8000-000000000002");
    // The first document stays at the service without a file: the result says which one.
    expect(result.replacedItemId).toBe("10000000-0000-4000-8000-000000000001");
  });

  it("gives up with UPLOAD_FORBIDDEN when the fresh endpoint is refused too", async () => {
    answers = [{ status: 403 }, { status: 403 }];
    await expect(run()).rejects.toMatchObject({ code: "UPLOAD_FORBIDDEN", httpStatus: 403 });
    expect(puts).toHaveLength(2);
  });

  it("refuses an endpoint on a host that is not allowed without starting any request", async () => {
    await expect(run(createDocument("https://evil.example.net"))).rejects.toMatchObject({ code: "UPLOAD_HOST_NOT_ALLOWED" });
    expect(puts).toEqual([]);
  });

  it("reports a checksum refusal (400 Md5Mismatch) without retrying it", async () => {
    answers = [{ status: 400, body: "<Error><Code>Md5Mismatch</Code><Message>no</Message></Error>" }];
    await expect(run()).rejects.toMatchObject({ code: "UPLOAD_CHECKSUM_MISMATCH", storageCode: "Md5Mismatch" });
    expect(puts).toHaveLength(1);
  });

  it("treats any other 400 as a refusal with its own message", async () => {
    answers = [{ status: 400 }];
    await expect(run()).rejects.toMatchObject({ code: "UPLOAD_REJECTED" });
  });

  it("retries a network failure after 1 s, 2 s and 4 s, then says the address could not be reached", async () => {
    vi.useFakeTimers();
    answers = ["network", "network", "network", "network"];
    const stages: UploadStage[] = [];
    const outcome = run(createDocument(), stages).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(7000);
    const error = await outcome;
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).message).toContain("could not be reached");
    expect(puts).toHaveLength(4);
    expect(stages.filter((s) => s.stage === "retrying").map((s) => (s as { delayMs: number }).delayMs)).toEqual([1000, 2000, 4000]);
  });

  it("succeeds when the connection comes back during the retries", async () => {
    vi.useFakeTimers();
    answers = ["network", { status: 201 }];
    const outcome = run();
    await vi.advanceTimersByTimeAsync(1000);
    await expect(outcome).resolves.toMatchObject({ size: 5 });
  });
});

describe("uploadDocument's reports for the app's record", () => {
  type Reported = { itemId: string } & UploadMilestone;
  const reportRun = (create: ReturnType<typeof createDocument>, options: { signal?: AbortSignal; replacesItemId?: string } = {}) => {
    const reports: Reported[] = [];
    let clock = 1_000;
    const outcome = uploadDocument({
      file,
      input,
      allowedOrigins: [ORIGIN],
      createDocument: create,
      hashFile: fakeHash,
      report: (itemId, milestone) => reports.push({ itemId, ...milestone }),
      now: () => (clock += 250),
      ...options,
    });
    return { outcome, reports };
  };
  const ITEM_1 = "10000000-0000-4000-8000-000000000001";
  const ITEM_2 = "10000000-0000-4000-8000-000000000002";

  it("reports the start and the upload with its mode, bytes, MD5 and duration, and no 'created' when the app recorded it", async () => {
    const create = vi.fn(async () => ({ ...(await createDocument()()), recorded: true }));
    const { outcome, reports } = reportRun(create);
    await outcome;
    expect(reports).toEqual([
      { itemId: ITEM_1, type: "upload_started", mode: "single", bytes: 5 },
      { itemId: ITEM_1, type: "uploaded", mode: "single", bytes: 5, md5: "5d41402abc4b2a76b9719d911017c592", durationMs: 250 },
    ]);
  });

  it("reports 'created' itself, without the upload link or SAS, when the app could not record it", async () => {
    const create = vi.fn(async () => ({ ...(await createDocument()()), recorded: false }));
    const { outcome, reports } = reportRun(create);
    await outcome;
    expect(reports[0]).toEqual({
      itemId: ITEM_1,
      type: "created",
      fileId: "00000000-0000-4000-8000-000000000001",
      subdocid: 1,
      container: "documents",
      name: "hello.pdf",
      doctype: "contract",
      size: 5,
    });
    expect(JSON.stringify(reports)).not.toMatch(/sig=|uploadendpoint|sas|devstoreaccount1/);
  });

  it("after a refused link reports the first item replaced by the new one, and the upload on the new one", async () => {
    answers = [{ status: 403 }, { status: 201 }];
    const { outcome, reports } = reportRun(createDocument());
    await outcome;
    expect(reports.map(({ itemId, type }) => `${type} ${itemId}`)).toEqual([
      `upload_started ${ITEM_1}`,
      `replaced ${ITEM_1}`,
      `upload_started ${ITEM_2}`,
      `uploaded ${ITEM_2}`,
    ]);
    expect(reports[1]).toMatchObject({ replacedByItemId: ITEM_2 });
  });

  it("starting over an interrupted upload whose link expired and was forgotten reports the old item replaced by the new one", async () => {
    const { outcome, reports } = reportRun(createDocument(), { replacesItemId: ITEM_2 });
    await outcome;
    expect(reports.map(({ itemId, type }) => `${type} ${itemId}`)).toEqual([`replaced ${ITEM_2}`, `upload_started ${ITEM_1}`, `uploaded ${ITEM_1}`]);
    expect(reports[0]).toMatchObject({ replacedByItemId: ITEM_1 });
  });

  it("reports a failure with the code the user was shown, on the document it happened to", async () => {
    answers = [{ status: 400, body: "<Error><Code>Md5Mismatch</Code></Error>" }];
    const { outcome, reports } = reportRun(createDocument());
    await expect(outcome).rejects.toMatchObject({ code: "UPLOAD_CHECKSUM_MISMATCH" });
    expect(reports.at(-1)).toEqual({ itemId: ITEM_1, type: "failed", errorCode: "UPLOAD_CHECKSUM_MISMATCH" });
  });

  it("reports nothing when the document was never created", async () => {
    const create = vi.fn(async (): Promise<CreateDocumentResult> => {
      throw new Error("service down");
    });
    const { outcome, reports } = reportRun(create);
    await expect(outcome).rejects.toThrow("service down");
    expect(reports).toEqual([]);
  });

  it("reports a cancel as abandoned but a pause as nothing", async () => {
    for (const [reason, expected] of [[undefined, ["upload_started", "abandoned"]], [UPLOAD_PAUSED, ["upload_started"]]] as const) {
      const controller = new AbortController();
      const create = vi.fn(async () => {
        const created = await createDocument()();
        // The user stops it while the PUT is on its way.
        setTimeout(() => controller.abort(reason), 0);
        return created;
      });
      vi.stubGlobal("XMLHttpRequest", class extends FakeXhr {
        send() {}
      });
      const { outcome, reports } = reportRun(create, { signal: controller.signal });
      await expect(outcome).rejects.toMatchObject({ code: "UPLOAD_CANCELLED" });
      expect(reports.map((r) => r.type)).toEqual(expected);
    }
  });
});

describe("uploadDocument under a rate limit", () => {
  const tooMany = (code: "RATE_LIMITED" | "SERVICE_RATE_LIMITED", seconds: number) => new ApiError(429, code, "Too many requests", undefined, undefined, seconds);

  it("waits out the app's 429 for its Retry-After, then creates the document and uploads it", async () => {
    vi.useFakeTimers();
    const succeed = createDocument();
    let calls = 0;
    const create = vi.fn(async () => (++calls <= 2 ? Promise.reject(tooMany("RATE_LIMITED", 3)) : succeed()));
    const stages: UploadStage[] = [];
    const outcome = run(create, stages);
    await vi.advanceTimersByTimeAsync(2999);
    expect(create).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(create).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3000);
    await expect(outcome).resolves.toMatchObject({ itemId: "10000000-0000-4000-8000-000000000001" });
    expect(create).toHaveBeenCalledTimes(3);
    expect(puts).toHaveLength(1);
    expect(stages.filter((s) => s.stage === "throttled")).toEqual([
      { stage: "throttled", delayMs: 3000, by: "app" },
      { stage: "throttled", delayMs: 3000, by: "app" },
    ]);
  });

  it("says when it is the service that asked to wait", async () => {
    vi.useFakeTimers();
    const succeed = createDocument();
    let calls = 0;
    const create = vi.fn(async () => (++calls === 1 ? Promise.reject(tooMany("SERVICE_RATE_LIMITED", 30)) : succeed()));
    const stages: UploadStage[] = [];
    const outcome = run(create, stages);
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(outcome).resolves.toMatchObject({ size: 5 });
    expect(stages).toContainEqual({ stage: "throttled", delayMs: 30_000, by: "service" });
  });

  for (const [what, seconds] of [["a Retry-After of 0", 0], ["a Retry-After date already past (read as 0)", retryAfterSeconds(new Date(Date.now() - 60_000).toUTCString())!]] as const) {
    it(`waits at least ${MIN_RATE_LIMIT_WAIT_MS} ms after a 429 with ${what}, as every wait on a 429 does: never a loop of creations`, async () => {
      vi.useFakeTimers();
      const succeed = createDocument();
      let calls = 0;
      const create = vi.fn(async () => (++calls <= 3 ? Promise.reject(tooMany("RATE_LIMITED", seconds)) : succeed()));
      const stages: UploadStage[] = [];
      const outcome = run(create, stages);
      await vi.advanceTimersByTimeAsync(MIN_RATE_LIMIT_WAIT_MS - 1);
      expect(create).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(create).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(2 * MIN_RATE_LIMIT_WAIT_MS);
      await expect(outcome).resolves.toMatchObject({ size: 5 });
      expect(create).toHaveBeenCalledTimes(4);
      expect(stages.filter((s) => s.stage === "throttled").map((s) => s.stage === "throttled" && s.delayMs)).toEqual([1000, 1000, 1000]);
    });
  }

  it("ends with the 429 when its wait is longer than a page should wait", async () => {
    const refusal = tooMany("SERVICE_RATE_LIMITED", MAX_THROTTLE_WAIT_MS / 1000 + 1);
    const create = vi.fn(async () => Promise.reject(refusal));
    await expect(run(create)).rejects.toBe(refusal);
    expect(create).toHaveBeenCalledTimes(1);
    expect(puts).toHaveLength(0);
  });

  it("a queue of 200 files completes under a budget of 50 creations a minute, one request per wait", async () => {
    vi.useFakeTimers();
    const succeed = createDocument();
    const windowStart = { at: Date.now(), spent: 0 };
    let refused = 0;
    // The app's budget as the server keeps it: a fixed window from its first request.
    const create = vi.fn(async () => {
      if (Date.now() - windowStart.at >= 60_000) Object.assign(windowStart, { at: Date.now(), spent: 0 });
      if (windowStart.spent >= 50) {
        refused++;
        throw tooMany("RATE_LIMITED", Math.ceil((windowStart.at + 60_000 - Date.now()) / 1000));
      }
      windowStart.spent++;
      return succeed();
    });
    const done: string[] = [];
    const queue = new UploadQueue(
      (f, i, onStage, signal) => uploadDocument({ file: f, input: i, allowedOrigins: [ORIGIN], createDocument: create, hashFile: fakeHash, onStage, signal }),
      (doc) => done.push(doc.itemId),
    );
    queue.enqueue(Array.from({ length: 200 }, (_, n) => ({ file: new File(["hello"], `file-${n}.pdf`), input: { ...input, name: `file-${n}.pdf` } })));
    for (let minute = 0; minute < 10 && done.length < 200; minute++) await vi.advanceTimersByTimeAsync(60_000);
    expect(done).toHaveLength(200);
    expect(new Set(done).size).toBe(200);
    expect(queue.getSnapshot().every((item) => item.status === "done")).toBe(true);
    expect(puts).toHaveLength(200);
    // Each spent window costs one refused request, the one whose wait runs to the window's end.
    expect(refused).toBe(3);
  });
});
