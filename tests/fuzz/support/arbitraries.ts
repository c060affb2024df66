import fc from "fast-check";

/** Bodies a little over the services' 1 MiB limit; generated rarely so a run stays at a few MiB in total. */
export const ONE_MIB = 1024 * 1024;

const controlChar = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/**
 * Document names from every corner that has bitten a name check: empty and 1–3 UTF-16 units around the limit,
 * astral characters (2 units each), combining marks, bidi overrides, control characters, lone surrogates,
 * and names of a few KiB.
 */
export const nameArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", "a", "ab", "abc", "a.b", "👍", "👍a", "e\u0301", "\u202Eabc", "\u0000\u0000\u0000", "   ", "\uFEFFab"),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({ unit: fc.oneof(controlChar, loneSurrogate, fc.string({ unit: "grapheme-ascii", maxLength: 1 })), maxLength: 8 }),
  fc.string({ unit: "grapheme-ascii", minLength: 1000, maxLength: 8000 }),
);

/** JSON values of every type but string: what a client sends when it gets a field's type wrong. */
export const nonStringJsonArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Extra, unknown fields, including the keys prototype-pollution attempts use. */
export const extraFieldsArb: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("__proto__", "constructor", "prototype", "itemId", "owner")),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 4 },
);

/** Turns well-formed JSON text into malformed text: cut short, a stray character, a BOM, trailing garbage. */
export function malformJson(json: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(json, fc.nat()).map(([text, at]) => text.slice(0, at % Math.max(text.length, 1))),
    fc
      .tuple(json, fc.nat(), fc.constantFrom("{", "}", ",", ":", '"', "\\", "\u0000", "'", "NaN", "\n"))
      .map(([text, at, stray]) => {
        const i = at % (text.length + 1);
        return text.slice(0, i) + stray + text.slice(i);
      }),
    json.map((text) => `\uFEFF${text}`),
    json.map((text) => `${text}}`),
    fc.constantFrom("", " ", "null,", "{'name':'abc'}", '{"name":"abc",}', "[", "undefined"),
  );
}

/**
 * Header values a client can actually put on the wire (visible ASCII, tab, Latin-1 above 0x7F): fetch refuses
 * CR, LF and NUL, and Node's parser answers other control bytes itself, before any handler runs.
 */
export const headerValueArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "grapheme-ascii", maxLength: 40 }).map((v) => v.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, "")),
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
);

/** Media types a JSON endpoint must tell apart from its own. */
export const contentTypeArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/json;charset=latin1") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      "",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json-patch+json",
      "application/jsonx",
      "json",
      "application/octet-stream",
    ),
  },
  { weight: 1, arbitrary: headerValueArb },
);
