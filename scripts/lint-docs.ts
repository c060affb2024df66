import path from "node:path";
import { lintDocs } from "./lib/docs-rules";

// The docs' own rules (scripts/lib/docs-rules.ts), run by `npm run lint:docs` after remark's link check.
const root = path.resolve(import.meta.dirname, "..");
const problems = lintDocs(root);
for (const p of problems) console.error(`${p.file}:${p.line} [${p.rule}] ${p.message}`);
if (problems.length > 0) {
  console.error(`lint:docs: ${problems.length} problem(s). The rules: CONTRIBUTING.md#docs`);
  process.exit(1);
}
console.log("lint:docs: every page within its budget, no run-log markers, every figure linked to docs/figures.md");
