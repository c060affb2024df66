/**
 * `npm run smoke -- <URL>`: a person's journey through a deployment of the app, in a real browser: the app answers,
 * sign in at the service with a test account, the account page, a tiny document uploaded straight to the storage,
 * "Uploaded" in the list, the document removed from the list, sign out. Exit 0 when every step passed, 1 naming the
 * failed step and why (its screenshot and trace in a folder it names), 2 when it could not run. docs/deployment.md.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseSmokeArgs, USAGE, UsageError, type SmokeArgs } from "./lib/smoke/args";
import { redact, runSmoke, type SmokeRun } from "./lib/smoke/journey";
import { junitXml, stepLine, summaryLines } from "./lib/smoke/report";

let args: SmokeArgs;
try {
  args = parseSmokeArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`smoke: ${error.message}\n${USAGE}`);
  process.exit(2);
}

const username = process.env.SMOKE_USERNAME!;
const password = process.env.SMOKE_PASSWORD!;
console.log(`smoke: ${args.url.href}, as the test account in SMOKE_USERNAME`);
let index = 0;
let run: SmokeRun;
try {
  run = await runSmoke({
    url: args.url,
    username,
    password,
    headed: args.headed,
    outDir: args.outDir,
    signInHook: args.signInHook,
    onStep: (step) => console.log(stepLine(step, index++)),
  });
} catch (error) {
  // The browser did not start, or the output folder cannot be written: the deployment was not checked.
  console.error(`smoke: could not run: ${redact((error as Error).message, [password, username]).split("\n")[0]}`);
  process.exit(2);
}

const lines = summaryLines(run);
const failed = run.steps.some((s) => s.status === "failed");
for (const line of lines) (failed ? console.error : console.log)(line);
if (args.junit) {
  await mkdir(path.dirname(path.resolve(args.junit)), { recursive: true });
  await writeFile(args.junit, junitXml(run, args.url));
  console.log(`smoke: JUnit report in ${args.junit}`);
}
process.exit(failed ? 1 : 0);
