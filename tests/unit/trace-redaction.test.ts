import { deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { redactTraceZip } from "../../scripts/lib/smoke/trace-redaction";

/** A minimal zip (stored entries), as a test's own writer: the module must read what it did not write itself. */
function zipOf(entries: Record<string, string | Buffer>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(0, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(nameBytes.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, nameBytes, data);
    central.push(dir, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** The entries of the zip the module wrote, by the central directory (deflated or stored). */
function entriesOf(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + zip.readUInt32LE(at + 20));
    out.set(zip.subarray(at + 46, at + 46 + nameLength).toString(), zip.readUInt16LE(at + 10) === 8 ? inflateRawSync(raw) : raw);
    at += 46 + nameLength;
  }
  return out;
}

const SESSION = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..c2Vzc2lvbi1pdg.c2Vzc2lvbi1jaXBoZXJ0ZXh0.dGFn";
const CSRF = "0f3c2a9d8e7b6a5f4e3d2c1b0a998877%7Cabcdef";
const SIG = "dGhpcyBpcyBhIHNpZ25hdHVyZQ%3D%3D";
const ID_TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";
const UPLOAD = `http://127.0.0.1:4002/documents/f.txt?sv=2024-08-04&sp=cw&sig=${SIG}`;

describe("redactTraceZip", () => {
  const network = [
    {
      type: "resource-snapshot",
      snapshot: {
        request: {
          method: "POST",
          url: "http://localhost:3000/api/documents",
          headers: [
            { name: "Cookie", value: `authjs.session-token=${SESSION}; authjs.csrf-token=${CSRF}` },
            { name: "Content-Type", value: "application/json" },
          ],
          cookies: [{ name: "authjs.session-token", value: SESSION }],
        },
        response: {
          status: 201,
          headers: [{ name: "Set-Cookie", value: `authjs.session-token=${SESSION}; Path=/; Expires=Fri, 27 Nov 2026 15:00:00 GMT; HttpOnly` }, { name: "Date", value: "Fri, 27 Nov 2026 15:00:00 GMT" }],
          content: { _sha1: "body.json" },
        },
      },
    },
    { type: "resource-snapshot", snapshot: { request: { method: "GET", url: `http://localhost:4000/session/end?id_token_hint=${ID_TOKEN}&post_logout_redirect_uri=x`, headers: [{ name: "Authorization", value: "Bearer opaque-access-token-1234" }] } } },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");
  const trace = JSON.stringify({ type: "console", text: `Access to XMLHttpRequest at '${UPLOAD}' from origin 'http://localhost:3000' has been blocked by CORS policy` });
  const body = JSON.stringify({ itemId: "i", sas: `sv=2024-08-04&sp=cw&sig=${SIG}`, uploadendpoint: UPLOAD, recorded: true });
  const screenshot = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xc3, 0x28]);
  const redacted = entriesOf(redactTraceZip(zipOf({ "trace.network": network, "trace.trace": trace, "resources/body.json": body, "resources/page@1.jpeg": screenshot })));
  const all = [...redacted.values()].map((data) => data.toString("utf8")).join("\n");

  it("takes out cookie, Set-Cookie and Authorization values, SAS signatures and tokens, wherever they were copied", () => {
    for (const secret of [SESSION, CSRF, SIG, decodeURIComponent(SIG), ID_TOKEN, "opaque-access-token-1234"]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/sig=(?!\[redacted\])/);
    const lines = redacted.get("trace.network")!.toString().split("\n").map((line) => JSON.parse(line));
    expect(lines[0].snapshot.request.headers[0]).toEqual({ name: "Cookie", value: "[redacted]" });
    expect(lines[0].snapshot.request.cookies[0]).toEqual({ name: "authjs.session-token", value: "[redacted]" });
    expect(lines[0].snapshot.response.headers[0]).toEqual({ name: "Set-Cookie", value: "[redacted]" });
  });

  it("keeps what a failure is diagnosed by: methods, URLs without their credentials, statuses, other headers, binary entries", () => {
    const lines = redacted.get("trace.network")!.toString().split("\n").map((line) => JSON.parse(line));
    expect(lines[0].snapshot.request).toMatchObject({ method: "POST", url: "http://localhost:3000/api/documents" });
    expect(lines[0].snapshot.response.status).toBe(201);
    // A Set-Cookie's attributes are not secrets: the same date elsewhere stays.
    expect(lines[0].snapshot.response.headers[1]).toEqual({ name: "Date", value: "Fri, 27 Nov 2026 15:00:00 GMT" });
    expect(lines[1].snapshot.request.url).toBe("http://localhost:4000/session/end?id_token_hint=[redacted]&post_logout_redirect_uri=x");
    expect(JSON.parse(redacted.get("resources/body.json")!.toString())).toEqual({
      itemId: "i",
      sas: "sv=2024-08-04&sp=cw&sig=[redacted]",
      uploadendpoint: "http://127.0.0.1:4002/documents/f.txt?sv=2024-08-04&sp=cw&sig=[redacted]",
      recorded: true,
    });
    expect(redacted.get("resources/page@1.jpeg")).toEqual(screenshot);
  });

  it("reads the deflated zips Playwright writes", () => {
    const deflated = zipOf({ "trace.network": network });
    // The same zip with its one entry deflated (method 8), as Playwright stores it.
    const data = deflateRawSync(Buffer.from(network));
    const nameLength = "trace.network".length;
    const local = Buffer.from(deflated.subarray(0, 30 + nameLength));
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    const dir = Buffer.from(deflated.subarray(30 + nameLength + network.length, 30 + nameLength + network.length + 46 + nameLength));
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(data.length, 20);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(dir.length, 12);
    end.writeUInt32LE(local.length + data.length, 16);
    const text = entriesOf(redactTraceZip(Buffer.concat([local, data, dir, end]))).get("trace.network")!.toString();
    expect(text).not.toContain(SESSION);
    expect(text).toContain("http://localhost:3000/api/documents");
  });
});
