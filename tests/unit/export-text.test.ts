import { describe, expect, it } from "vitest";
import { csvFile, csvLinesOf, EXPORT_CHUNK_CHARS, jsonFile } from "@/lib/exports/export-text";
import { accessLogExportChunks, operatorExportChunks } from "@/lib/operators/operator-export";
import type { OperatorExportRow } from "@/lib/operators/records/export-period-batches";

async function* batches<T>(rows: T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

async function text(chunks: AsyncGenerator<string>): Promise<string> {
  let whole = "";
  for await (const chunk of chunks) whole += chunk;
  return whole;
}

const row = (i: number): OperatorExportRow => ({
  userKey: `user-${i}`,
  itemId: `item-${i}`,
  email: `person${i}@example.com`,
  name: i === 1 ? '=HYPERLINK("x"), "draft"' : `Contract ${i}`,
  doctype: "contract",
  status: "uploaded",
  createdAt: "2026-11-20T01:00:00.000Z",
  updatedAt: "2026-11-20T01:10:00.000Z",
  removedAt: null,
  size: 1000 + i,
  md5: null,
  lastErrorCode: null,
});

// One writer for both exports: the user's own (documents-export.test.ts) and the operator's, here.
describe("the export writer", () => {
  it("writes JSON as JSON.stringify(…, null, 2) writes the whole, empty arrays and an empty head included", async () => {
    const rows = [{ a: 1, b: ["x", { c: null }] }, { a: 2, b: [] }];
    const head = { exportedAt: "2026-11-27T00:00:00.000Z", note: { nested: [1, 2] } };
    for (const size of [1, 2, 5]) {
      expect(await text(jsonFile(head, { rows: batches(rows, size), none: batches([], size) }))).toBe(JSON.stringify({ ...head, rows, none: [] }, null, 2));
    }
    expect(await text(jsonFile({}, {}))).toBe(JSON.stringify({}, null, 2));
    expect(await text(jsonFile({}, { rows: batches(rows, 1) }))).toBe(JSON.stringify({ rows }, null, 2));
  });

  it("writes CSV with a byte-order mark and header, quotes and defuses cells, and hands on chunks of about 64 Ki characters", async () => {
    const csv = await text(csvFile(["a", "b"], csvLinesOf(batches([["=1+1", 'say "hi"'], ["x,y", 3]], 1), (r) => r)));
    expect(csv).toBe('\uFEFFa,b\r\n\'=1+1,"say ""hi"""\r\n"x,y",3\r\n');
    const sizes: number[] = [];
    const many = Array.from({ length: 5_000 }, (_, i) => [`row ${i}`, "x".repeat(100)]);
    for await (const chunk of csvFile(["a", "b"], csvLinesOf(batches(many, 2_000), (r) => r))) sizes.push(chunk.length);
    expect(sizes.length).toBeGreaterThan(5);
    expect(Math.max(...sizes)).toBeLessThan(EXPORT_CHUNK_CHARS + 200);
  });

  it("writes the operator's exports with it: their JSON is the whole as JSON.stringify(…, null, 2) writes it, their CSV cells defused", async () => {
    const documents = [row(1), row(2), row(3)];
    const period = { from: new Date("2026-11-20T00:00:00Z"), to: new Date("2026-11-21T00:00:00Z") };
    const now = new Date("2026-11-27T00:00:00Z");
    const records = { exportPeriodBatches: (_period: unknown, size?: number) => batches(documents, size ?? 500) };
    const json = await text(operatorExportChunks(period, "json", { records, batchSize: 2, now }));
    expect(json).toBe(JSON.stringify({ exportedAt: now.toISOString(), from: period.from.toISOString(), to: period.to.toISOString(), documents }, null, 2));
    const csv = await text(operatorExportChunks(period, "csv", { records, batchSize: 2 }));
    expect(csv.split("\r\n")[1]).toBe(`2026-11-20T01:00:00.000Z,user-1,person1@example.com,item-1,"'=HYPERLINK(""x""), ""draft""",contract,uploaded,1001,,,2026-11-20T01:10:00.000Z,`);
    const entries = [{ id: 1, at: "2026-11-27T00:00:00.000Z", operatorUserKey: "op", operatorEmail: "op@example.com", action: "search" as const, subjectUserKey: null, subjectEmail: null, itemId: null, detail: "alice" }];
    const log = await text(accessLogExportChunks("json", { records: { exportAccessBatches: () => batches(entries, 1) }, now }));
    expect(log).toBe(JSON.stringify({ exportedAt: now.toISOString(), entries }, null, 2));
  });
});
