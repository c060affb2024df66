import type { SmokeRun, StepResult } from "./journey";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const MARK = { passed: "✓", failed: "✗", skipped: "-" } as const;

/** One line per step: mark, number, name, what was seen or why it failed, time. */
export function stepLine(step: StepResult, index: number): string {
  const time = step.status === "skipped" ? "" : ` (${seconds(step.ms)})`;
  return `  ${MARK[step.status]} ${index + 1} ${step.name.padEnd(8)} ${step.status === "skipped" ? "skipped" : step.detail}${time}`;
}

/** The closing lines: the verdict, and for a failure the step, the reason and where its files are. */
export function summaryLines(run: SmokeRun): string[] {
  const failed = run.steps.find((s) => s.status === "failed");
  if (!failed) return [`smoke: passed, ${run.steps.length} steps in ${seconds(run.ms)}; ${run.documentName} (doctype smoke) was uploaded and removed from the list`];
  return [
    `smoke: FAILED at ${failed.name}: ${failed.detail}`,
    `smoke: screenshot and trace of the failing step in ${run.runDir}: ${failed.files.map((f) => f.split("/").at(-1)).join(", ") || "none could be taken"}`,
    `smoke: open the trace with \`npx playwright show-trace <file>\``,
    ...signOutLines(run),
  ];
}

/** What became of the failed run's session: ended at the app and the service, or left for the operator to end. */
function signOutLines(run: SmokeRun): string[] {
  const outcome = run.signOutAfterFailure;
  if (!outcome) return [];
  if (outcome.ok) return [`smoke: signed out after the failure: ${outcome.detail}`];
  return [`smoke: could not sign out after the failure (${outcome.detail}): sign the test account out at the service`];
}

const xml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JUnit XML: one test case per step; a skipped step after a failure is marked skipped. */
export function junitXml(run: SmokeRun, url: URL): string {
  const failures = run.steps.filter((s) => s.status === "failed").length;
  const skipped = run.steps.filter((s) => s.status === "skipped").length;
  const cases = run.steps.map((step, i) => {
    const open = `    <testcase classname="smoke" name="${xml(`${i + 1} ${step.name}: ${step.title}`)}" time="${(step.ms / 1000).toFixed(3)}"`;
    if (step.status === "passed") return `${open}/>`;
    if (step.status === "skipped") return `${open}>\n      <skipped/>\n    </testcase>`;
    const files = step.files.map((f) => `[[ATTACHMENT|${f}]]`).join("\n");
    return `${open}>\n      <failure message="${xml(`${step.name}: ${step.detail}`)}"/>\n      <system-out>${xml(files)}</system-out>\n    </testcase>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="smoke" tests="${run.steps.length}" failures="${failures}" skipped="${skipped}" time="${(run.ms / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(`smoke ${url.origin}`)}" tests="${run.steps.length}" failures="${failures}" skipped="${skipped}" time="${(run.ms / 1000).toFixed(3)}" timestamp="${new Date(Date.now() - run.ms).toISOString()}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}
