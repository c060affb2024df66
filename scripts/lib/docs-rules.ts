import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The rules that keep the docs a reference (CONTRIBUTING.md, "Docs"): each page within its word budget, no
 * run-log markers ("stop 12", "session 3"), and every measured figure either in docs/figures.md or in a block that
 * links to it. Plain line rules over the Markdown source, so a reader can predict what fails without a parser.
 */

export type DocsProblem = { file: string; line: number; rule: "budget" | "history" | "figure"; message: string };

/** Words per page; every other page gets `otherPage`, and all pages together `total`. */
export const WORD_BUDGETS = {
  pages: { "docs/page-weight.md": 2_000, "docs/testing.md": 3_000, "docs/figures.md": 3_000 } as Record<string, number>,
  otherPage: 5_000,
  total: 40_000,
};

/** The pages the budgets and rules cover: the three root pages and everything under docs/. */
export function listDocsPages(root: string): string[] {
  const pages = ["README.md", "CONTRIBUTING.md", "SECURITY.md"];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".md")) pages.push(relative);
    }
  };
  walk("docs");
  return pages.sort();
}

/** Words as `wc -w` counts them: runs of non-space characters, code included. */
export function countWords(markdown: string): number {
  return markdown.split(/\s+/).filter(Boolean).length;
}

export function checkBudgets(pages: { file: string; text: string }[], budgets = WORD_BUDGETS): DocsProblem[] {
  const problems: DocsProblem[] = [];
  let total = 0;
  for (const { file, text } of pages) {
    const words = countWords(text);
    total += words;
    const budget = budgets.pages[file] ?? budgets.otherPage;
    if (words > budget) problems.push({ file, line: 1, rule: "budget", message: `${words} words, over its budget of ${budget}` });
  }
  if (total > budgets.total) {
    problems.push({ file: "(all pages)", line: 1, rule: "budget", message: `${total} words in all, over the budget of ${budgets.total}` });
  }
  return problems;
}

// "stop 44", "Stop #12", "session 3": a run log's markers. History lives in git, not in the docs.
const HISTORY_MARKER = /\b(stop|session)\s+#?\d+/gi;

export function findHistoryMarkers(file: string, text: string): DocsProblem[] {
  const problems: DocsProblem[] = [];
  text.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(HISTORY_MARKER)) {
      problems.push({ file, line: index + 1, rule: "history", message: `"${match[0]}": the docs record what is true now; history belongs in commit messages` });
    }
  });
  return problems;
}

/**
 * A figure: a number, a space and a unit of time or size (`17.2 ms`, `3 s`, `1.5 min`, `237 MiB`, `56 req/s`), or a
 * number with a share or a ratio (`12 %`, `1.3×`; `20 × 200` is a product), in prose ("429s" is a plural, not a
 * time). Not a figure: anything inside backticks or a fenced code block (commands, settings and defaults are
 * written as code), and a bound: a number after ≤, ≥, <, >, ±, ~ or the words "at most", "at least", "up to",
 * "more than", "less than", "over", "under", "within", "below", "above" (a goal or a limit, not a measurement).
 */
const BOUND = String.raw`(?:[≤≥<>±~]|\b(?:at most|at least|up to|more than|less than|over|under|within|below|above))\s?`;
const FIGURE = new RegExp(
  String.raw`(?<![\w.,])(?<!${BOUND})\d[\d,]*(?:\.\d+)?(?:\s(?:ms|µs|s|min|KiB|MiB|GiB|KB|MB|GB|kB|req\/s|writes\/s)|\s?%|×)(?![\p{L}\d])`,
  "giu",
);
const FIGURES_LINK = /\]\((?:[^)\s]*\/)?figures\.md(?:#[^)\s]*)?\)/;
const FENCE = /^\s*(```|~~~)/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

/** Figures in prose, with code spans taken out. */
export function figuresIn(line: string): string[] {
  const prose = line.replace(/`[^`]*`/g, "``");
  return [...prose.matchAll(FIGURE)].map((m) => m[0]);
}

type Block = { start: number; lines: string[]; table: boolean };

/** Paragraphs, list items, headings and table rows: the unit within which a figure must link to figures.md. */
function blocks(text: string): Block[] {
  const result: Block[] = [];
  let current: Block | undefined;
  let fenced = false;
  text.split("\n").forEach((line, index) => {
    if (FENCE.test(line)) {
      fenced = !fenced;
      current = undefined;
      return;
    }
    if (fenced || line.trim() === "") {
      current = undefined;
      return;
    }
    const table = line.trimStart().startsWith("|");
    const startsBlock = !current || table || current.table || LIST_ITEM.test(line) || /^#{1,6}\s/.test(line);
    if (startsBlock) {
      current = { start: index + 1, lines: [line], table };
      result.push(current);
    } else current?.lines.push(line);
  });
  return result;
}

/**
 * Blocks holding a figure and no link to docs/figures.md. A table row is its own block, and it is covered by a
 * link in its own row or in the paragraph just before the table. figures.md itself is the figures' home.
 */
export function findUnlinkedFigures(file: string, text: string): DocsProblem[] {
  if (file === "docs/figures.md") return [];
  const problems: DocsProblem[] = [];
  let tableCovered = false;
  let previous: Block | undefined;
  for (const block of blocks(text)) {
    const linked = block.lines.some((line) => FIGURES_LINK.test(line));
    if (block.table) {
      if (!previous?.table) tableCovered = !!previous && previous.lines.some((line) => FIGURES_LINK.test(line));
    }
    // One text per block: a code span may wrap onto the next line.
    const figures = figuresIn(block.lines.join("\n"));
    if (figures.length > 0 && !linked && !(block.table && tableCovered)) {
      problems.push({
        file,
        line: block.start,
        rule: "figure",
        message: `figure ${figures.slice(0, 3).join(", ")} without a link to figures.md: link the row that holds it, or write a setting as code`,
      });
    }
    previous = block;
  }
  return problems;
}

/** Every rule over every page under `root`. */
export function lintDocs(root: string): DocsProblem[] {
  const pages = listDocsPages(root).map((file) => ({ file, text: readFileSync(path.join(root, file), "utf8") }));
  return [
    ...checkBudgets(pages),
    ...pages.flatMap(({ file, text }) => [...findHistoryMarkers(file, text), ...findUnlinkedFigures(file, text)]),
  ];
}
