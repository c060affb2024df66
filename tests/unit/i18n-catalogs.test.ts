import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createTranslator, type IntlError } from "next-intl";
import { describe, expect, it } from "vitest";
import { LOCALES } from "@/lib/i18n/locales";

const MESSAGES_DIR = path.resolve(import.meta.dirname, "../../messages");

type Catalog = { [key: string]: string | Catalog };

const readCatalog = (code: string): Catalog => JSON.parse(readFileSync(path.join(MESSAGES_DIR, `${code}.json`), "utf8")) as Catalog;

/** "a.b.c" → message, for every leaf. */
function flatten(catalog: Catalog, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(id, value);
    else for (const [k, v] of flatten(value, id)) out.set(k, v);
  }
  return out;
}

/** The placeholders (`{name}`, `{count, plural, …}`) and tags (`<link>`) a message takes. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  // Not a plural or select branch (`one {…}`, `=1 {…}`), whose body is text.
  for (const match of message.matchAll(/(?<!(?:=\d+|zero|one|two|few|many|other)\s*)\{\s*([A-Za-z_]\w*)\s*[,}]/g)) names.add(match[1]!);
  for (const match of message.matchAll(/<([A-Za-z_]\w*)>/g)) names.add(`<${match[1]}>`);
  return [...names].sort();
}

/** Arguments English uses only to choose a form (`{count, plural, …}`): a language without those forms may leave them out. */
function selectorsOnly(message: string): Set<string> {
  const selectors = [...message.matchAll(/\{\s*([A-Za-z_]\w*)\s*,\s*(?:plural|select|selectordinal)\s*,/g)].map((m) => m[1]!);
  const plain = new Set([...message.matchAll(/\{\s*([A-Za-z_]\w*)\s*\}/g)].map((m) => m[1]!));
  return new Set(selectors.filter((name) => !plain.has(name)));
}

const english = flatten(readCatalog("en"));

describe("message catalogs", () => {
  it("has one catalog per listed language, and no catalog for an unlisted one", () => {
    const files = readdirSync(MESSAGES_DIR).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, ""));
    expect(files.sort()).toEqual(LOCALES.map((l) => l.code).sort());
  });

  for (const { code } of LOCALES) {
    describe(code, () => {
      const catalog = flatten(readCatalog(code));

      it("has every key of the English catalog and no other", () => {
        const missing = [...english.keys()].filter((k) => !catalog.has(k));
        const extra = [...catalog.keys()].filter((k) => !english.has(k));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      });

      it("takes the arguments of the English message in every message, and every message formats", () => {
        const errors: string[] = [];
        const t = createTranslator({
          locale: code,
          messages: readCatalog(code),
          onError: (error: IntlError) => errors.push(error.message),
        });
        for (const [key, message] of catalog) {
          const source = english.get(key) ?? "";
          const optional = selectorsOnly(source);
          const given = argumentsOf(message);
          expect.soft(given.filter((a) => !argumentsOf(source).includes(a)), `${key}: unknown arguments`).toEqual([]);
          expect.soft(argumentsOf(source).filter((a) => !given.includes(a) && !optional.has(a)), `${key}: missing arguments`).toEqual([]);
          const values = Object.fromEntries(
            argumentsOf(message).map((arg) => (arg.startsWith("<") ? [arg.slice(1, -1), (text: string) => text] : [arg, 2])),
          );
          (t.markup as (key: string, values: object) => string)(key, values);
        }
        expect(errors).toEqual([]);
      });

      it("has no empty message", () => {
        expect([...catalog].filter(([, m]) => m.trim() === "").map(([k]) => k)).toEqual([]);
      });
    });
  }

  it("writes Japanese requests politely (〜してください, never a bare imperative ending)", () => {
    const japanese = flatten(readCatalog("ja"));
    // Plain-form endings that read as orders or as casual speech at the end of a sentence.
    const rude = [...japanese].filter(([, m]) => /(しろ|せよ|してくれ|するな|だ)[。！]?$/.test(m.trim())).map(([k]) => k);
    expect(rude).toEqual([]);
  });
});
