import { describe, expect, it } from "vitest";
import { NAME_TOO_LONG_MESSAGE, NAME_TOO_SHORT_MESSAGE, documentNameError } from "@/lib/document-name";
import { createDocumentInputSchema } from "@/lib/esign/schemas";

describe("document name rule without zod", () => {
  it("accepts an empty name and names of 3 to 255 characters", () => {
    for (const name of ["", "abc", "x".repeat(255)]) expect(documentNameError(name)).toBeUndefined();
  });

  it("rejects a name shorter than 3 characters and one longer than 255", () => {
    expect(documentNameError("a")).toBe(NAME_TOO_SHORT_MESSAGE);
    expect(documentNameError("ab")).toBe(NAME_TOO_SHORT_MESSAGE);
    expect(documentNameError("x".repeat(256))).toBe(NAME_TOO_LONG_MESSAGE);
  });

  it("gives the same verdict and message as the route handler's zod schema", () => {
    for (const name of ["", "a", "ab", "abc", "contract.pdf", "x".repeat(255), "x".repeat(256), "x".repeat(1000)]) {
      const parsed = createDocumentInputSchema.shape.name.safeParse(name);
      expect(documentNameError(name)).toBe(parsed.success ? undefined : parsed.error.issues[0]?.message);
    }
  });
});
