import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { openDatabase, queryRows } from "@/lib/db/client";
import { DOCUMENT_EVENT_TYPES, REPORTED_EVENT_TYPES, SERVER_EVENT_TYPES } from "@/lib/documents/document-event-types";
import { documentEventInputSchema } from "@/lib/documents/document-record-input";
import type { DocumentReport } from "@/lib/documents/document-report";
import { LOCALES } from "@/lib/i18n/locales";

// The audit trail's event types are defined once (lib/documents/document-event-types.ts). The schema's column, the
// route's schema, the browser's report type, the catalogs and the fuzz arbitrary take them from there; these tests
// hold what cannot derive from it: the CHECK an applied migration wrote, and the catalog files.

const dir = mkdtempSync(join(tmpdir(), "esign-event-types-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the audit trail's event types", () => {
  it("are the ones the migrated database's CHECK constraint allows, no more and no fewer", async () => {
    const database = await openDatabase({ dir: join(dir, "db") });
    try {
      const [row] = await queryRows<{ definition: string }>(
        database.db,
        sql`select pg_get_constraintdef(oid) as definition from pg_constraint where conname = 'document_events_type_check'`,
      );
      const allowed = [...row!.definition.matchAll(/'([^']+)'/g)].map((match) => match[1]);
      expect(allowed.sort()).toEqual([...DOCUMENT_EVENT_TYPES].sort());
    } finally {
      await database.close();
    }
  });

  it("that the browser reports are what the events route takes, and the server's own are refused there", () => {
    expect(documentEventInputSchema.options.map((option) => option.shape.type.value)).toEqual([...REPORTED_EVENT_TYPES]);
    for (const type of SERVER_EVENT_TYPES) {
      const parsed = documentEventInputSchema.safeParse({ id: crypto.randomUUID(), at: "2026-11-28T10:00:00Z", type });
      expect(parsed.success, type).toBe(false);
    }
  });

  it("each have their words in the audit trail of both catalogs", () => {
    for (const { code } of LOCALES) {
      const catalog = JSON.parse(readFileSync(join(process.cwd(), "messages", `${code}.json`), "utf8")) as { auditTrail: Record<string, string> };
      for (const type of DOCUMENT_EVENT_TYPES) expect(catalog.auditTrail[type], `${code}: auditTrail.${type}`).toBeTruthy();
    }
  });

  it("type the browser's reports as the events route takes them (checked by typecheck)", () => {
    expectTypeOf<DocumentReport>().toExtend<z.input<typeof documentEventInputSchema>>();
  });
});
