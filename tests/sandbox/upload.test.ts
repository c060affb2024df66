import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { addFault, resetSandbox, startTestSandbox } from "./support/sandbox";
import { partnerTokens } from "./support/oauth";

let sandbox: RunningSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = (await partnerTokens(sandbox)).access_token;
});
afterAll(async () => {
  await sandbox?.stop();
});
beforeEach(async () => {
  await resetSandbox(sandbox);
});

async function createDocument(name = "contract.pdf"): Promise<{ uploadendpoint: string; fileId: string; sas: string; url: string }> {
  const response = await fetch(`${sandbox.apiUrl}/api/document`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ docid: null, name, doctype: "contract" }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

function upload(url: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "PUT",
    headers: { "content-type": "application/octet-stream", "x-ms-blob-type": "BlockBlob", ...headers },
    body,
  });
}

async function listDocuments() {
  return (await (await fetch(`${sandbox.apiUrl}/_sandbox/documents`)).json()).documents;
}

describe("upload file", () => {
  it("answers 201 and the admin view shows the size and MD5 of the bytes sent", async () => {
    const bytes = Uint8Array.from(randomBytes(300_000));
    const document = await createDocument();
    const response = await upload(document.uploadendpoint, bytes);
    expect(response.status).toBe(201);

    const md5 = createHash("md5").update(bytes).digest();
    const [listed] = await listDocuments();
    expect(listed).toMatchObject({
      fileId: document.fileId,
      name: "contract.pdf",
      doctype: "contract",
      subdocid: 1,
      owner: "alice@example.com",
      blob: { exists: true, size: bytes.length, md5Base64: md5.toString("base64"), md5Hex: md5.toString("hex") },
    });
  });

  it("lists a created document whose file was not uploaded as absent", async () => {
    await createDocument();
    const [listed] = await listDocuments();
    expect(listed.blob).toEqual({ exists: false, size: null, md5Base64: null, md5Hex: null });
  });

  it("answers 400 when x-ms-blob-type is missing", async () => {
    const document = await createDocument();
    const response = await fetch(document.uploadendpoint, {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(response.status).toBe(400);
  });

  it("answers 400 when the content MD5 does not match the bytes", async () => {
    const document = await createDocument();
    const wrong = createHash("md5").update("other bytes").digest("base64");
    const response = await upload(document.uploadendpoint, new Uint8Array([1, 2, 3]), { "content-md5": wrong });
    expect(response.status).toBe(400);
  });

  it("answers 403 for a tampered SAS signature", async () => {
    const document = await createDocument();
    const url = new URL(document.uploadendpoint);
    url.searchParams.set("sig", Buffer.alloc(32).toString("base64"));
    expect((await upload(url.href, new Uint8Array([1]))).status).toBe(403);
  });

  it("answers 403 when the SAS is used for another blob", async () => {
    const document = await createDocument();
    const other = document.uploadendpoint.replace(document.fileId, "00000000-0000-4000-8000-000000000000");
    expect((await upload(other, new Uint8Array([1]))).status).toBe(403);
  });

  it("answers 403 without a SAS", async () => {
    const document = await createDocument();
    expect((await upload(document.url, new Uint8Array([1]))).status).toBe(403);
  });

  it("answers 403 for an already-expired SAS issued by the sas fault", async () => {
    expect((await addFault(sandbox, { target: "sas", expired: true, count: 1 })).status).toBe(201);
    const expired = await createDocument();
    expect(Date.parse(new URLSearchParams(expired.sas).get("se") ?? "")).toBeLessThan(Date.now());
    expect((await upload(expired.uploadendpoint, new Uint8Array([1]))).status).toBe(403);

    const fresh = await createDocument();
    expect((await upload(fresh.uploadendpoint, new Uint8Array([1]))).status).toBe(201);
  });

  it("stages blocks with the same SAS, checking each block's Content-MD5, and commits them with Put Block List", async () => {
    const document = await createDocument();
    const parts = [Uint8Array.from(randomBytes(1000)), Uint8Array.from(randomBytes(500))];
    const ids = ["YmxvY2stMA==", "YmxvY2stMQ=="];
    const md5 = (b: Uint8Array) => createHash("md5").update(b).digest("base64");
    const stage = (i: number, contentMd5: string) =>
      fetch(`${document.uploadendpoint}&comp=block&blockid=${encodeURIComponent(ids[i]!)}`, { method: "PUT", headers: { "content-md5": contentMd5 }, body: parts[i] });
    expect((await stage(0, md5(parts[1]!))).status).toBe(400);
    expect((await stage(0, md5(parts[0]!))).status).toBe(201);
    expect((await stage(1, md5(parts[1]!))).status).toBe(201);
    expect((await listDocuments())[0].blob.exists).toBe(false);
    const whole = createHash("md5").update(parts[0]!).update(parts[1]!).digest();
    const commit = await fetch(`${document.uploadendpoint}&comp=blocklist`, {
      method: "PUT",
      headers: { "x-ms-blob-content-md5": whole.toString("base64") },
      body: `<?xml version="1.0" encoding="utf-8"?><BlockList>${ids.map((id) => `<Latest>${id}</Latest>`).join("")}</BlockList>`,
    });
    expect(commit.status).toBe(201);
    expect((await listDocuments())[0].blob).toMatchObject({ exists: true, size: 1500, md5Hex: whole.toString("hex") });
  });

  it("issues a create-only SAS with the permissions fault: one PUT works, Put Block is refused with 403", async () => {
    expect((await addFault(sandbox, { target: "sas", permissions: "c", count: 1 })).status).toBe(201);
    const document = await createDocument();
    const block = await fetch(`${document.uploadendpoint}&comp=block&blockid=YmxvY2stMA==`, { method: "PUT", body: new Uint8Array([1]) });
    expect(block.status).toBe(403);
    expect(await block.text()).toContain("AuthorizationPermissionMismatch");
    expect((await upload(document.uploadendpoint, new Uint8Array([1]))).status).toBe(201);
  });

  // Storage on disk: an in-memory store capped at 1 GiB refused this one with 409 MemoryExtentStoreAtSizeLimit.
  it("stores a file larger than 1 GiB", { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sandbox-big-upload-"));
    try {
      const file = path.join(dir, "big.bin");
      const size = 1280 * 1024 * 1024;
      // Sparse: no 1.25 GiB written to disk first, yet every byte is sent.
      await writeFile(file, "");
      await truncate(file, size);
      const document = await createDocument("big.bin");
      const { stdout } = await promisify(execFile)("curl", [
        "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-T", file,
        "-H", "x-ms-blob-type: BlockBlob", "-H", "content-type: application/octet-stream", "-H", "Expect:", document.uploadendpoint,
      ]);
      expect(stdout).toBe("201");
      const md5 = createHash("md5");
      for await (const chunk of createReadStream(file)) md5.update(chunk as Buffer);
      const [listed] = await listDocuments();
      expect(listed.blob).toMatchObject({ exists: true, size, md5Hex: md5.digest("hex") });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("allows the app's origin to PUT from a browser (CORS preflight)", async () => {
    const document = await createDocument();
    const response = await fetch(document.uploadendpoint, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:3000",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "content-type,x-ms-blob-type",
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect(response.headers.get("access-control-allow-methods")).toMatch(/PUT/);
  });

  it("refuses a CORS preflight from another origin", async () => {
    const document = await createDocument();
    const response = await fetch(document.uploadendpoint, {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "PUT" },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
