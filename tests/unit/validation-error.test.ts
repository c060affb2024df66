import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validationError } from "@/lib/errors";

const strictBody = z.strictObject({ documents: z.array(z.string()) });

describe("validationError", () => {
  it("names each unknown key with a message about that key alone, the empty key as \"\"", () => {
    const parsed = strictBody.safeParse({ documents: [], "": null, _: {} });
    expect(parsed.success).toBe(false);
    const error = validationError(parsed.error!);
    expect(error.status).toBe(400);
    expect(error.fields).toEqual({ '""': ['Unrecognized key: ""'], _: ['Unrecognized key: "_"'] });
  });

  it("puts an unknown key inside a nested object under its path", () => {
    const parsed = z.strictObject({ options: z.strictObject({ a: z.number() }) }).safeParse({ options: { a: 1, b: 2 } });
    expect(validationError(parsed.error!).fields).toEqual({ "options.b": ['Unrecognized key: "b"'] });
  });
});
