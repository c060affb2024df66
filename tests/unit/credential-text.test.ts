import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createdDocumentFactsSchema } from "@/lib/documents/document-record-input";
import { createDocumentInputSchema, createDocumentResultSchema } from "@/lib/esign/schemas";
import { redactCredentials } from "@/lib/security/credential-text";

describe("redactCredentials", () => {
  it("keeps text that merely mentions a key, and replaces a SAS query or a JWT", () => {
    expect(redactCredentials("Contract sig=final.pdf")).toBe("Contract sig=final.pdf");
    expect(redactCredentials("sv=2 and sig=3.pdf")).toBe("sv=2 and sig=3.pdf");
    expect(redactCredentials("Lease 2026 (v=2).pdf")).toBe("Lease 2026 (v=2).pdf");
    expect(redactCredentials("https://acct.blob.core.windows.net/c/b?sv=2024-11-04&se=2026&sr=b&sp=cw&sig=abc%3D")).toBe("https://acct.blob.core.windows.net/c/b?[redacted]");
    expect(redactCredentials("see SIG=x&SV=1 here")).toBe("see [redacted] here");
    expect(redactCredentials("token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln end")).toBe("token [redacted] end");
    expect(redactCredentials("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9")).toBe("[redacted]");
  });
});

describe("one schema for what the service returns and what the record takes", () => {
  it("records every fileId and subdocid the service's response schema accepts, and refuses what it refuses", () => {
    const subdocidArb = fc.oneof(
      fc.integer(),
      fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
      fc.constantFrom(-2_147_483_649, -2_147_483_648, 2_147_483_647, 2_147_483_648, 1.5, Number.MAX_SAFE_INTEGER),
      fc.integer().map(String),
      fc.constantFrom("-0", " 12 ", "99999999999", "1e3"),
    );
    const response = { itemId: "0b9d3c0e-8f7a-4a51-9d3c-0e8f7a4a519d", container: "documents", uploadendpoint: "https://acct.blob.core.windows.net/d/x?sig=s" };
    fc.assert(
      fc.property(subdocidArb, fc.oneof(fc.uuid(), fc.constantFrom("{0B1E2D3C-4F5A-6B7C-0D9E-0F1A2B3C4D5E}", "0b1e2d3c4f5a6b7c0d9e0f1a2b3c4d5e", "not-a-guid")), (subdocid, fileId) => {
        const service = createDocumentResultSchema.safeParse({ ...response, fileId, subdocid });
        const record = createdDocumentFactsSchema.safeParse({ fileId, subdocid, name: "Lease", doctype: "contract" });
        expect(record.success, JSON.stringify({ subdocid, fileId })).toBe(service.success);
        if (service.success && record.success) expect(record.data.subdocid).toBe(service.data.subdocid);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses control characters in a new document's name or type before the service is asked", () => {
    const result = createDocumentInputSchema.safeParse({ name: "Lease\u0000.pdf", doctype: "contract" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["name"]);
    expect(createDocumentInputSchema.safeParse({ name: "Lease.pdf", doctype: "con\ntract" }).error?.issues[0]?.path).toEqual(["doctype"]);
    expect(createDocumentInputSchema.safeParse({ name: "Contract sig=final.pdf", doctype: "" }).success).toBe(true);
  });
});
