import fc from "fast-check";
import { ONE_MIB, contentTypeArb, extraFieldsArb, malformJson, nameArb, nonStringJsonArb } from "./arbitraries";

/** A create-document request body with its content type, as bytes on the wire (what the oracle judges). */
export interface DocumentBody {
  contentType: string | undefined;
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

/** Objects close to the spec's `{ docid, name, doctype }`: each field right, wrong-typed or absent, plus extras. */
const documentObjectArb: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        name: fc.oneof({ weight: 4, arbitrary: nameArb }, { weight: 1, arbitrary: nonStringJsonArb }),
        doctype: fc.oneof(
          { weight: 4, arbitrary: fc.oneof(fc.constantFrom("contract", ""), fc.string({ unit: "binary", maxLength: 12 })) },
          { weight: 1, arbitrary: nonStringJsonArb },
        ),
        docid: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: nonStringJsonArb.filter((v) => v !== null) }),
      },
      { requiredKeys: [] },
    ),
    fc.option(extraFieldsArb, { freq: 3 }),
  )
  .map(([fields, extras]) => ({ ...extras, ...fields }));

const documentJsonArb = documentObjectArb.map((object) => JSON.stringify(object));

// Over the 1 MiB limit in the name itself, or in an extra field beside a valid document.
const overLimitName = (extra: number) => JSON.stringify({ name: "x".repeat(ONE_MIB + extra), doctype: "contract" });
const overLimitPadding = () => JSON.stringify({ name: "ok.pdf", doctype: "contract", padding: "y".repeat(ONE_MIB) });

// Rare on purpose: each is over a MiB. `hugeDocumentBodies` pins one of each so every run covers them.
const hugeTextArb = fc.oneof(fc.integer({ min: 1, max: 4096 }).map(overLimitName), fc.constant(null).map(overLimitPadding));

const bodyBytesArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 60, arbitrary: documentJsonArb.map((text) => encoder.encode(text)) },
  { weight: 10, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => encoder.encode(JSON.stringify(value) ?? "")) },
  { weight: 15, arbitrary: malformJson(documentJsonArb).map((text) => encoder.encode(text)) },
  { weight: 5, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  { weight: 1, arbitrary: hugeTextArb.map((text) => encoder.encode(text)) },
);

export const documentBodyArb: fc.Arbitrary<DocumentBody> = fc.record({ contentType: contentTypeArb, bytes: bodyBytesArb });

/** One over-limit body per kind, for `fc.assert`'s `examples`. */
export const hugeDocumentBodies: DocumentBody[] = [overLimitName(1), overLimitPadding()].map((text) => ({
  contentType: "application/json",
  bytes: encoder.encode(text),
}));

export type DocumentVerdict = "accept" | "not-json-media-type" | "too-large" | "malformed" | "invalid-fields";

/**
 * Whether the spec accepts a body, judged from the bytes alone: JSON media type, at most 1 MiB, a JSON object
 * whose `name` is a string that is empty or at least 3 characters, `doctype` a string, `docid` null or absent.
 */
export function judgeDocumentBody({ contentType, bytes }: DocumentBody): DocumentVerdict {
  const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") return "not-json-media-type";
  if (bytes.byteLength > ONE_MIB) return "too-large";
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    return "malformed";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "invalid-fields";
  const { name, doctype, docid } = value as Record<string, unknown>;
  const nameOk = typeof name === "string" && (name.length === 0 || name.length >= 3);
  const docidOk = docid === undefined || docid === null;
  return nameOk && typeof doctype === "string" && docidOk ? "accept" : "invalid-fields";
}
