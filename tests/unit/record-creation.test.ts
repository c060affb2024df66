import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it, vi } from "vitest";

// The create route's "created" record, with the database replaced: it may answer, fail or hang.
const recordCreated = vi.fn();
vi.mock("@/lib/documents/document-records", () => ({ recordCreated: (...args: unknown[]) => recordCreated(...args) }));
vi.mock("@/lib/documents/request-user", () => ({
  userKeyFromCookie: async () => "user-key-1",
  recordContextOf: () => ({ requestId: "req-9", device: "Firefox 133 on Linux" }),
}));

const { recordCreationWithin } = await import("@/lib/documents/record-creation");

const req = new NextRequest("http://localhost:3000/api/documents", { method: "POST" });
const input = { docid: null, name: "Lease", doctype: "contract" };
const created = {
  itemId: "0b9d3c0e-8f7a-4a51-9d3c-0e8f7a4a519d",
  fileId: "1c0e4d1f-9a8b-4b62-8e4d-1f9a8b4b628e",
  container: "documents",
  sas: "sv=2024-11-04&sr=b&sp=cw&sig=c2lnbmF0dXJl",
  url: "https://acct.blob.core.windows.net/documents/x",
  subdocid: 0,
  uploadendpoint: "https://acct.blob.core.windows.net/documents/x?sv=2024-11-04&sr=b&sp=cw&sig=c2lnbmF0dXJl",
};

beforeEach(() => {
  recordCreated.mockReset();
});

describe("recording a creation from the create route", () => {
  it("passes the document's facts only, never its SAS, URL or upload endpoint, and says it is recorded", async () => {
    recordCreated.mockResolvedValue(undefined);
    const requestedAt = new Date("2026-11-28T10:00:00Z");
    await expect(recordCreationWithin(req, created, input, 1_000, requestedAt)).resolves.toBe(true);
    expect(recordCreated).toHaveBeenCalledWith(
      "user-key-1",
      { itemId: created.itemId, fileId: created.fileId, subdocid: 0, container: "documents", name: "Lease", doctype: "contract" },
      { requestId: "req-9", device: "Firefox 133 on Linux" },
      requestedAt,
    );
    expect(JSON.stringify(recordCreated.mock.calls)).not.toMatch(/sig=|blob\.core/);
  });

  it("records what the service accepted: a name that merely contains sig=, a negative subdocid, a credential redacted", async () => {
    recordCreated.mockResolvedValue(undefined);
    await expect(recordCreationWithin(req, { ...created, subdocid: -1 }, { ...input, name: "Contract sig=final.pdf" }, 1_000)).resolves.toBe(true);
    expect(recordCreated).toHaveBeenLastCalledWith("user-key-1", expect.objectContaining({ subdocid: -1, name: "Contract sig=final.pdf" }), expect.anything(), expect.any(Date));
    // The service's numeric-string form, as its schema turns it into a number.
    await expect(recordCreationWithin(req, { ...created, subdocid: "-3" as unknown as number }, { ...input, name: "x?sv=2024-11-04&sig=abc (1).pdf" }, 1_000)).resolves.toBe(true);
    expect(recordCreated).toHaveBeenLastCalledWith("user-key-1", expect.objectContaining({ subdocid: -3, name: "x?[redacted] (1).pdf" }), expect.anything(), expect.any(Date));
  });

  it("answers \"erased\" when the user's records were erased while the creation was under way (the route's 410)", async () => {
    const { recordsErasedError } = await import("@/lib/errors");
    recordCreated.mockRejectedValue(recordsErasedError());
    await expect(recordCreationWithin(req, created, input, 1_000)).resolves.toBe("erased");
  });

  it("answers false at once when the database fails", async () => {
    recordCreated.mockRejectedValue(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    await expect(recordCreationWithin(req, created, input, 1_000)).resolves.toBe(false);
  });

  it("answers false after the bounded wait when the database never answers", async () => {
    recordCreated.mockReturnValue(new Promise(() => {}));
    const started = performance.now();
    // Resolving at all is the point: the record's promise never settles.
    await expect(recordCreationWithin(req, created, input, 200)).resolves.toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });
});
