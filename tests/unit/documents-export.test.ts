import { describe, expect, it } from "vitest";
import type { ExportedDocument, ExportedEvent } from "@/lib/documents/document-records";
import { documentsExportCsv, documentsExportJson, exportByteStream, exportFileName } from "@/lib/documents/documents-export";
import { EXPORT_CHUNK_CHARS } from "@/lib/exports/export-text";

const doc = (i: number, overrides: Partial<ExportedDocument> = {}): ExportedDocument => ({
  itemId: `item-${i}`,
  fileId: `file-${i}`,
  subdocid: 0,
  container: "documents",
  name: `Contract, "draft" ${i}`,
  doctype: "contract",
  size: 1000 + i,
  md5: null,
  status: "uploaded",
  replacedByItemId: null,
  createdAt: new Date(Date.UTC(2026, 10, 26, 12, 0, 10 - i)).toISOString(),
  updatedAt: new Date(Date.UTC(2026, 10, 26, 12, 0, 10 - i)).toISOString(),
  removedAt: null,
  ...overrides,
});

const event = (itemId: string, type: ExportedEvent["type"], details: Record<string, unknown> = {}): ExportedEvent => ({
  itemId,
  eventId: `${itemId}-${type}`,
  type,
  at: "2026-11-26T12:00:00.000Z",
  recordedAt: "2026-11-26T12:00:01.000Z",
  requestId: "req-1",
  device: "Chrome 131 on macOS 15",
  details,
});

/** A stand-in for the repository, answering in batches as it does; counts the reads. */
function source(documents: ExportedDocument[], events: ExportedEvent[]) {
  const reads = { documents: 0, events: 0, trails: 0, batchEvents: 0 };
  async function* batches<T>(rows: T[], size: number, what: keyof typeof reads) {
    for (let i = 0; i < rows.length; i += size) {
      reads[what] += 1;
      yield rows.slice(i, i + size);
    }
  }
  return {
    reads,
    exportDocumentBatches: (_userKey: string, size: number) => batches(documents, size, "documents"),
    exportEventBatches: (_userKey: string, size: number) => batches(events, size, "events"),
    exportEventsOf: async (_userKey: string, itemIds: readonly string[], limit: number) => {
      reads.batchEvents += 1;
      const some = events.filter((e) => itemIds.includes(e.itemId));
      return some.length > limit ? null : some;
    },
    exportTrailBatches: (_userKey: string, itemId: string, size: number) =>
      batches(
        events.filter((e) => e.itemId === itemId),
        size,
        "trails",
      ),
  };
}

/** One CSV line's cells, quotes undone. */
function cells(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let cell = "";
      for (i += 1; i < line.length; i++) {
        if (line[i] === '"' && line[i + 1] === '"') cell += line[++i];
        else if (line[i] === '"') break;
        else cell += line[i];
      }
      out.push(cell);
      i += 1;
    } else {
      const end = line.indexOf(",", i);
      out.push(line.slice(i, end < 0 ? line.length : end));
      i = end < 0 ? line.length : end;
    }
    if (line[i] !== ",") return out;
    i += 1;
  }
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = "";
  for await (const chunk of chunks) out += chunk;
  return out;
}

const documents = [doc(1, { removedAt: "2026-11-26T13:00:00.000Z" }), doc(2), doc(3), doc(4), doc(5)];
const events = [event("item-1", "created"), event("item-1", "removed"), event("item-2", "created"), event("item-2", "uploaded", { bytes: 1002, mode: "single" }), event("item-4", "created")];

describe("the streamed export", () => {
  it("writes the JSON text JSON.stringify gives for the whole, whatever the batch size", async () => {
    const exportedAt = new Date("2026-11-27T01:00:00Z");
    const whole = JSON.stringify({ exportedAt: exportedAt.toISOString(), documents, events }, null, 2);
    for (const size of [1, 2, 500]) expect(await text(documentsExportJson(source(documents, events), "u", exportedAt, size))).toBe(whole);
    expect(await text(documentsExportJson(source([], []), "u", exportedAt, 2))).toBe(JSON.stringify({ exportedAt: exportedAt.toISOString(), documents: [], events: [] }, null, 2));
  });

  it("writes a byte-order mark, the header, then one row per event (one for a document without events), in batches", async () => {
    const from = source(documents, events);
    const csv = await text(documentsExportCsv(from, "u", 2));
    expect(from.reads.documents).toBe(3);
    expect(csv.startsWith("\uFEFFitem_id,file_id,subdocid,name,doctype,status,size,md5,created_at,removed_at,event_type,event_at,device,request_id,details\r\n")).toBe(true);
    const rows = csv.slice(1).split("\r\n").slice(1, -1).map(cells);
    expect(rows.map((r) => [r[0], r[10]])).toEqual([
      ["item-1", "created"],
      ["item-1", "removed"],
      ["item-2", "created"],
      ["item-2", "uploaded"],
      ["item-3", ""],
      ["item-4", "created"],
      ["item-5", ""],
    ]);
    expect(rows.every((r) => r.length === 15)).toBe(true);
    expect(rows[0]![3]).toBe('Contract, "draft" 1');
    expect(rows[0]![9]).toBe("2026-11-26T13:00:00.000Z");
    expect(rows[3]![14]).toBe('{"bytes":1002,"mode":"single"}');
    expect(await text(documentsExportCsv(source([], []), "u", 2))).toBe("\uFEFFitem_id,file_id,subdocid,name,doctype,status,size,md5,created_at,removed_at,event_type,event_at,device,request_id,details\r\n");
  });
});

describe("the streamed export of long trails", () => {
  // 1,200 documents, 3 events each: every batch of 500 documents is ~200 KiB of JSON, several chunks.
  const many = Array.from({ length: 1_200 }, (_, i) => doc(i, { itemId: `item-${String(i).padStart(4, "0")}` }));
  const trails = many.flatMap((d) => [event(d.itemId, "created"), event(d.itemId, "upload_started", { mode: "blocks", bytes: 1 }), event(d.itemId, "uploaded", { mode: "blocks", bytes: 1 })]);

  it("hands the response chunks of about 64 Ki characters, never a whole batch as one string, CSV and JSON alike", async () => {
    const exportedAt = new Date("2026-11-27T01:00:00Z");
    for (const chunks of [documentsExportJson(source(many, trails), "u", exportedAt), documentsExportCsv(source(many, trails), "u")]) {
      const sizes: number[] = [];
      let whole = "";
      for await (const chunk of chunks) {
        sizes.push(chunk.length);
        whole += chunk;
      }
      expect(sizes.length).toBeGreaterThan(5);
      // One record is well under 2 Ki characters: a chunk is cut at the first record past 64 Ki.
      expect(Math.max(...sizes)).toBeLessThan(EXPORT_CHUNK_CHARS + 2048);
      expect(whole.length).toBe(sizes.reduce((a, b) => a + b, 0));
    }
  });

  it("reads each document's trail in keyset batches when a batch's trails hold more events than one read may, with the same rows", async () => {
    const small = source(many, trails);
    const expected = await text(documentsExportCsv(small, "u", 500, 2_000));
    expect(small.reads.trails).toBe(0);
    const capped = source(many, trails);
    // At most 10 events per read of a batch's trails: every batch of 4 documents (12 events) reads each trail alone.
    expect(await text(documentsExportCsv(capped, "u", 4, 10))).toBe(expected);
    expect(capped.reads.batchEvents).toBe(300);
    expect(capped.reads.trails).toBe(1_200);
    expect(expected.split("\r\n").length - 2).toBe(trails.length);
  });
});

describe("the export's byte stream", () => {
  it("reads a batch only when the reader asks for one, and stops reading when the download is abandoned", async () => {
    let produced = 0;
    async function* chunks() {
      for (let i = 0; i < 100; i++) {
        produced += 1;
        yield `chunk ${i}\n`;
      }
    }
    const stream = await exportByteStream(chunks(), () => {});
    // The first chunk is read up front (so a database that is down is still a 503), nothing more until asked.
    await new Promise((resolve) => setImmediate(resolve));
    expect(produced).toBe(1);
    const reader = stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("chunk 0\n");
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("chunk 1\n");
    await reader.cancel();
    expect(produced).toBe(2);
  });

  it("ends the download with an error when a later batch fails, and says so once", async () => {
    async function* chunks() {
      yield "first\n";
      throw new Error("database export failed (SQLSTATE 57014)");
    }
    const failures: unknown[] = [];
    const stream = await exportByteStream(chunks(), (error) => failures.push(error));
    await expect(new Response(stream).text()).rejects.toThrow(/57014/);
    expect(failures).toHaveLength(1);
  });

  it("fails before any byte when the first batch fails, so the route can answer 503", async () => {
    async function* chunks(): AsyncGenerator<string> {
      throw new Error("database could not be opened");
    }
    let ends = 0;
    await expect(exportByteStream(chunks(), () => {}, () => (ends += 1))).rejects.toThrow(/could not be opened/);
    expect(ends).toBe(1);
  });

  it("says once that the reads are over, whether the download completes, fails part-way or is abandoned", async () => {
    async function* chunks(fail: boolean) {
      yield "a";
      yield "b";
      if (fail) throw new Error("SQLSTATE 57014");
    }
    let ends = 0;
    const onEnd = () => (ends += 1);
    expect(await new Response(await exportByteStream(chunks(false), () => {}, onEnd)).text()).toBe("ab");
    expect(ends).toBe(1);
    await expect(new Response(await exportByteStream(chunks(true), () => {}, onEnd)).text()).rejects.toThrow(/57014/);
    expect(ends).toBe(2);
    const abandoned = (await exportByteStream(chunks(false), () => {}, onEnd)).getReader();
    await abandoned.read();
    expect(ends).toBe(2);
    await abandoned.cancel();
    await abandoned.cancel();
    expect(ends).toBe(3);
  });
});

describe("the export's file name", () => {
  it("is the user's own date in their zone, not UTC's", () => {
    const lateEveningInNewYork = new Date("2026-11-27T01:00:00Z");
    expect(exportFileName("csv", lateEveningInNewYork, "America/New_York")).toBe("documents-2026-11-26.csv");
    expect(exportFileName("json", lateEveningInNewYork, "UTC")).toBe("documents-2026-11-27.json");
    expect(exportFileName("csv", new Date("2026-11-26T15:30:00Z"), "Asia/Tokyo")).toBe("documents-2026-11-27.csv");
  });
});
