import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkBudgets,
  countWords,
  figuresIn,
  findHistoryMarkers,
  findUnlinkedFigures,
  lintDocs,
  listDocsPages,
} from "@/scripts/lib/docs-rules";

const root = path.resolve(import.meta.dirname, "../..");
const words = (n: number) => Array.from({ length: n }, () => "word").join(" ");

describe("docs rules (npm run lint:docs)", () => {
  it("passes on the repository's own docs", () => {
    const problems = lintDocs(root).map((p) => `${p.file}:${p.line} [${p.rule}] ${p.message}`);
    expect(problems).toEqual([]);
  });

  describe("word budgets", () => {
    it("counts words as wc -w does", () => {
      expect(countWords("# Title\n\nTwo `code` words,\n- and a list\n")).toBe(9);
    });

    it("fails a page over its own budget, another page over 5,000, and all pages over 40,000", () => {
      const problems = checkBudgets([
        { file: "docs/page-weight.md", text: words(2_001) },
        { file: "docs/testing.md", text: words(3_000) },
        { file: "docs/other.md", text: words(5_001) },
        { file: "docs/big.md", text: words(30_000) },
      ]);
      expect(problems.map((p) => [p.file, p.message])).toEqual([
        ["docs/page-weight.md", "2001 words, over its budget of 2000"],
        ["docs/other.md", "5001 words, over its budget of 5000"],
        ["docs/big.md", "30000 words, over its budget of 5000"],
        ["(all pages)", "40002 words in all, over the budget of 40000"],
      ]);
    });

    it("passes pages within their budgets", () => {
      expect(checkBudgets([{ file: "docs/figures.md", text: words(3_000) }, { file: "README.md", text: words(5_000) }])).toEqual([]);
    });

    it("covers the root pages and every page under docs/, new ones included", () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "lint-docs-"));
      afterAll(() => rmSync(dir, { recursive: true, force: true }));
      mkdirSync(path.join(dir, "docs/decisions"), { recursive: true });
      for (const file of ["README.md", "CONTRIBUTING.md", "SECURITY.md", "docs/backups.md", "docs/decisions/001-x.md"]) {
        writeFileSync(path.join(dir, file), "# Page\n");
      }
      writeFileSync(path.join(dir, "docs/notes.txt"), "not a page");
      expect(listDocsPages(dir)).toEqual(["CONTRIBUTING.md", "README.md", "SECURITY.md", "docs/backups.md", "docs/decisions/001-x.md"]);
      writeFileSync(path.join(dir, "docs/backups.md"), words(5_001));
      expect(lintDocs(dir).map((p) => [p.file, p.rule])).toEqual([["docs/backups.md", "budget"]]);
    });
  });

  describe("run-log markers", () => {
    it('fails "stop N" and "session N" in any case, with or without #', () => {
      const text = "# Stop 44: lists\n\nAs measured at stop #12.\nSee SESSION 3 for more.\n";
      expect(findHistoryMarkers("docs/x.md", text).map((p) => [p.line, p.message.split(":")[0]])).toEqual([
        [1, '"Stop 44"'],
        [3, '"stop #12"'],
        [4, '"SESSION 3"'],
      ]);
    });

    it("passes the words without a number", () => {
      expect(findHistoryMarkers("docs/x.md", "The session store stops at SIGTERM; a stop signal ends it.\n")).toEqual([]);
    });
  });

  describe("figures outside figures.md", () => {
    it("reads figures: times, sizes, shares and ratios in prose", () => {
      expect(figuresIn("p50 17.2 ms, 1,159 MiB, 1.5 min, 56 req/s, 12 % and 1.3× in 3 s")).toEqual([
        "17.2 ms",
        "1,159 MiB",
        "1.5 min",
        "56 req/s",
        "12 %",
        "1.3×",
        "3 s",
      ]);
    });

    it("does not read code, bounds, plurals, products or bare numbers as figures", () => {
      expect(figuresIn("`30 s` default, ≤ 1.3× goal, < 20 ms, 429s and 400s, 20 × 200, 1,000 events, 5 seconds, 3 spans")).toEqual([]);
      expect(figuresIn("More than 5 % for at most 10 min, within 2 s, over 1 GiB, up to 64 MiB")).toEqual([]);
    });

    it("fails a paragraph, a list item and a table row holding a figure without a link", () => {
      const text = [
        "# Page",
        "",
        "The list answered in 17.2 ms",
        "on the quiet machine.",
        "",
        "- first item is fine",
        "- second item took 3 s",
        "",
        "| step | time |",
        "|---|---|",
        "| build | 36 s |",
        "",
      ].join("\n");
      expect(findUnlinkedFigures("docs/x.md", text).map((p) => [p.line, p.rule])).toEqual([
        [3, "figure"],
        [7, "figure"],
        [11, "figure"],
      ]);
    });

    it("passes a figure whose block links to figures.md, a table after a linking paragraph, code blocks and figures.md itself", () => {
      const text = [
        "The list answered in 17.2 ms ([figures](figures.md#documents)).",
        "",
        "- took 3 s, see [figures](../docs/figures.md)",
        "",
        "Build times ([figures](figures.md)):",
        "",
        "| step | time |",
        "|---|---|",
        "| build | 36 s |",
        "",
        "```",
        "real 12.5 s",
        "```",
        "",
      ].join("\n");
      expect(findUnlinkedFigures("docs/x.md", text)).toEqual([]);
      expect(findUnlinkedFigures("docs/figures.md", "It took 36 s.\n")).toEqual([]);
    });

    it("reads a code span that wraps onto the next line as code", () => {
      expect(findUnlinkedFigures("docs/x.md", "Percentages (`{percent, number,\n  percent}`): `24%` in both.\n")).toEqual([]);
    });

    it("does not let a link in one paragraph cover the next", () => {
      const text = "Measured in [figures](figures.md).\n\nAnother run took 40 s.\n";
      expect(findUnlinkedFigures("docs/x.md", text).map((p) => p.line)).toEqual([3]);
    });
  });
});
