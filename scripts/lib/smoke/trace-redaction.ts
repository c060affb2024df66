import { readFile, writeFile } from "node:fs/promises";
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * A saved Playwright trace, rewritten without credentials. Playwright records every request's and response's
 * headers and bodies (the session cookie, `Set-Cookie`, the SAS URL the app hands the browser, the id_token_hint
 * of a sign-out) and has no option to leave headers out, so the smoke redacts each trace file once it is written:
 *
 * - in the trace's event and network logs, the value of every `Cookie`, `Set-Cookie`, `Authorization` and
 *   `Proxy-Authorization` header and of every recorded cookie;
 * - in every text entry (logs, response bodies, DOM snapshots), those values wherever else they appear, the
 *   value of URL parameters that carry a credential (`sig` of a SAS, `code`, `id_token_hint`, `access_token` …),
 *   and anything shaped like a JWT or JWE.
 *
 * Requests, statuses, timings, screenshots and the rest of each URL stay, which is what a failure is diagnosed by.
 */
export async function redactTraceFile(file: string): Promise<void> {
  await writeFile(file, redactTraceZip(await readFile(file)));
}

export const REDACTED = "[redacted]";

const SECRET_HEADERS = new Set(["cookie", "set-cookie", "authorization", "proxy-authorization"]);
/** URL parameters whose value is a credential: a SAS signature, OAuth codes and tokens, a client secret. */
const SECRET_PARAMS = ["sig", "code", "code_verifier", "id_token_hint", "id_token", "access_token", "refresh_token", "logout_token", "token", "client_secret"];
const SECRET_PARAM_PATTERN = new RegExp(`([?&"']|%3F|%26|&amp;)(${SECRET_PARAMS.join("|")})(=|%3D)(?!${escapeRegExp(REDACTED)})[^&#"'\\s\\\\<>]+`, "gi");
/** A JWS (three parts) or a JWE (five, the second possibly empty), base64url, as it starts: `{"` → `eyJ`. */
const JWT_PATTERN = /eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){2,4}/g;

/** The zip's entries with credentials taken out (see redactTraceFile), as a new zip. */
export function redactTraceZip(zip: Buffer): Buffer {
  const entries = readZip(zip);
  // First the headers, by structure: their values are then also taken out wherever else they were copied.
  const secrets = new Set<string>();
  const texts = entries.map((entry) => {
    const text = utf8(entry.data);
    if (text === null) return null;
    return /\.(trace|network)$/.test(entry.name) ? redactEventLines(text, secrets) : text;
  });
  const values = [...secrets].filter((value) => value.length >= 8).sort((a, b) => b.length - a.length);
  return writeZip(
    entries.map((entry, i) => {
      const text = texts[i];
      if (text === null || text === undefined) return entry;
      let out = text;
      for (const value of values) out = out.split(value).join(REDACTED).split(encodeURIComponent(value)).join(REDACTED);
      out = out.replace(SECRET_PARAM_PATTERN, (_m, before: string, name: string, equals: string) => `${before}${name}${equals}${REDACTED}`).replace(JWT_PATTERN, REDACTED);
      return { name: entry.name, data: Buffer.from(out, "utf8") };
    }),
  );
}

/** One JSON event per line: header and cookie values replaced, and collected into `secrets`. */
function redactEventLines(text: string, secrets: Set<string>): string {
  return text
    .split("\n")
    .map((line) => {
      if (!line.trim()) return line;
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        return line;
      }
      return JSON.stringify(redactHeaders(event, secrets));
    })
    .join("\n");
}

function redactHeaders(value: unknown, secrets: Set<string>, key = ""): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => {
      // HAR-style lists: `headers: [{ name, value }]` and `cookies: [{ name, value, … }]`.
      if (isRecord(item) && typeof item.name === "string" && typeof item.value === "string") {
        if (key === "cookies") return { ...item, value: keep("cookie-value", item.value, secrets) };
        if (key === "headers" && SECRET_HEADERS.has(item.name.toLowerCase())) return { ...item, value: keep(item.name, item.value, secrets) };
      }
      return redactHeaders(item, secrets);
    });
  }
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    // Header maps (`headers: { cookie: "…" }`), as API requests record them.
    if (key === "headers" && typeof field === "string" && SECRET_HEADERS.has(name.toLowerCase())) out[name] = keep(name, field, secrets);
    else out[name] = redactHeaders(field, secrets, name);
  }
  return out;
}

/**
 * Records a header's (or a cookie's) value as a secret, and the parts of it that can be copied elsewhere: each
 * cookie's value (every pair of a `Cookie` header, the first of each `Set-Cookie` line: the rest are attributes)
 * and a bearer or basic credential. Returns the placeholder.
 */
function keep(header: string, headerValue: string, secrets: Set<string>): string {
  secrets.add(headerValue);
  const name = header.toLowerCase();
  for (const line of headerValue.split("\n")) {
    const pairs = name === "cookie" ? line.split(";") : name === "set-cookie" ? [line.split(";")[0]!] : [];
    for (const pair of pairs) {
      const value = pair.slice(pair.indexOf("=") + 1).trim();
      if (pair.includes("=") && value) secrets.add(value);
    }
    const credential = /^\s*(?:bearer|basic)\s+(\S+)/i.exec(line)?.[1];
    if (credential) secrets.add(credential);
  }
  return REDACTED;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The text of an entry that is UTF-8 (logs, bodies, snapshots); null for binary ones (screenshots). */
function utf8(data: Buffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return null;
  }
}

type ZipEntry = { name: string; data: Buffer };

/** Every entry of a zip (as Playwright writes them: stored or deflated, no zip64), by its central directory. */
function readZip(zip: Buffer): ZipEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("not a zip file");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const local = zip.readUInt32LE(at + 42);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    if (method !== 0 && method !== 8) throw new Error(`zip entry ${name}: compression method ${method}`);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** 1980-01-01, the first day a zip entry can carry (as Playwright's own entries do, it says nothing). */
const DOS_DATE = (1 << 5) | 1;

/** A zip of these entries, deflated, names in UTF-8. */
function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, "utf8");
    const compressed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, compressed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
