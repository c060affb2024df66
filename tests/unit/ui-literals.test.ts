import path from "node:path";
import { describe, expect, it } from "vitest";
import { findUiLiterals } from "@/scripts/lib/ui-literals";

const root = path.resolve(import.meta.dirname, "../..");
const fixtures = path.join(root, "tests/fixtures/ui-literals");

describe("user-visible string literals in components", () => {
  it("finds none in app/ and components/: every text comes from messages/", () => {
    const found = findUiLiterals([path.join(root, "app"), path.join(root, "components")])
      .map((l) => `${path.relative(root, l.file)}:${l.line} ${l.where} ${JSON.stringify(l.text)}`);
    expect(found).toEqual([]);
  });

  it("fails on a component with literals: JSX text, user-facing props, shown expressions, object titles", () => {
    const found = findUiLiterals([fixtures]).filter((l) => l.file.endsWith("leaky.tsx"));
    expect(found.map((l) => [l.where, l.text])).toEqual([
      ["title:", "Account"],
      ["aria-label=", "Signed-in devices"],
      ["JSX text", "Your account"],
      ["JSX expression", "Saving"],
      ["JSX expression", "Welcome back, …"],
      ["placeholder=", "Search documents"],
      ["alt=", "Company logo"],
    ]);
  });

  it("passes the same component written with the catalog (call arguments, comparisons, markup attributes)", () => {
    expect(findUiLiterals([fixtures]).filter((l) => l.file.endsWith("clean.tsx"))).toEqual([]);
  });
});
