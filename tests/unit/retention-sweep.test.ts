import { describe, expect, it } from "vitest";
import { sweepExpiredDocuments } from "@/lib/documents/retention-sweep";

describe("the retention sweep", () => {
  it("deletes records untouched for DOCUMENT_RETENTION_DAYS days before now", async () => {
    const cutoffs: Date[] = [];
    const records = {
      deleteDocumentsUpdatedBefore: async (before: Date) => {
        cutoffs.push(before);
        return 3;
      },
    };
    await expect(sweepExpiredDocuments(records, 30, new Date("2026-11-26T12:00:00Z"))).resolves.toBe(3);
    expect(cutoffs).toEqual([new Date("2026-10-27T12:00:00Z")]);
  });
});
