import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** A user-visible string written into a component instead of taken from the message catalogs. */
export type UiLiteral = { file: string; line: number; text: string; where: string };

/** Props and object keys whose string values reach the user (shown, announced or used as a page title). */
const USER_FACING = new Set([
  "title",
  "aria-label",
  "aria-description",
  "aria-valuetext",
  "aria-placeholder",
  "aria-roledescription",
  "placeholder",
  "alt",
  "label",
  "confirmLabel",
  "busyLabel",
  "body",
  "description",
  "message",
  "valueText",
]);

// `%s` is a slot in a title template (`%s · Brand`), not words.
const hasLetter = (text: string) => /\p{L}/u.test(text.replace(/%s/g, ""));

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join("…");
  return undefined;
}

/**
 * String literals in an expression that end up as text: not a call's argument (`t("key")`), not compared
 * (`code === "LinkExpired"`), not an index (`messages["x"]`), and not inside nested JSX (checked on its own).
 */
function shownLiterals(expression: ts.Node, report: (node: ts.Node, text: string, where: string) => void, where: string) {
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      visit(node.expression);
      return;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind !== ts.SyntaxKind.BarBarToken && node.operatorToken.kind !== ts.SyntaxKind.QuestionQuestionToken && node.operatorToken.kind !== ts.SyntaxKind.PlusToken) {
      return;
    }
    if (ts.isConditionalExpression(node)) {
      visit(node.whenTrue);
      visit(node.whenFalse);
      return;
    }
    if (ts.isElementAccessExpression(node) || ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node)) return;
    const text = literalText(node);
    if (text !== undefined) {
      if (hasLetter(text)) report(node, text, where);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(expression);
}

const propName = (name: ts.Node): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : ts.isJsxNamespacedName(name) ? `${name.namespace.text}:${name.name.text}` : undefined;

/** Every user-visible literal in one source file: JSX text, user-facing props, and user-facing keys of object literals. */
export function findUiLiteralsInSource(file: string, source: string): UiLiteral[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: UiLiteral[] = [];
  const report = (node: ts.Node, text: string, where: string) =>
    found.push({ file, line: sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: text.trim(), where });

  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && hasLetter(node.text)) report(node, node.text, "JSX text");
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) shownLiterals(node.expression, report, "JSX expression");
    if (ts.isJsxAttribute(node)) {
      const name = propName(node.name);
      if (name && USER_FACING.has(name) && node.initializer) {
        const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer;
        if (value) shownLiterals(value, report, `${name}=`);
      }
    }
    if (ts.isPropertyAssignment(node)) {
      const name = propName(node.name);
      if (name && USER_FACING.has(name)) shownLiterals(node.initializer, report, `${name}:`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry) && !entry.endsWith(".d.ts") ? [full] : [];
  });
}

/** The check over folders (app/ and components/ in the test): every literal found, with file and line. */
export function findUiLiterals(dirs: string[]): UiLiteral[] {
  return dirs.flatMap(sourceFiles).flatMap((file) => findUiLiteralsInSource(file, readFileSync(file, "utf8")));
}
