/** What `npm run smoke -- <URL> [options]` was asked to do. Credentials never come from here. */
export type SmokeArgs = {
  url: URL;
  headed: boolean;
  /** A JUnit XML file to write (`--junit=path` or SMOKE_JUNIT). */
  junit: string | null;
  /** Where the failing step's screenshot and trace go (`--out=dir` or SMOKE_OUTPUT_DIR). */
  outDir: string;
  /** A module whose default export signs in at the service instead of the generic form filler (SMOKE_SIGN_IN). */
  signInHook: string | null;
};

export const USAGE = `usage: npm run smoke -- <app URL> [--headed] [--junit=<file>] [--out=<dir>]
  credentials from the environment only: SMOKE_USERNAME, SMOKE_PASSWORD
  optional: SMOKE_JUNIT=<file>, SMOKE_OUTPUT_DIR=<dir>, SMOKE_SIGN_IN=<module exporting the sign-in step>`;

/** A command line or environment the smoke cannot run with: exit code 2, before any browser starts. */
export class UsageError extends Error {}

const CREDENTIAL_FLAG = /^--?(user(name)?|pass(word)?|pwd|email|login|secret|credentials?)(=|$)/i;

/** Reads the command line (without node and the script) and the environment; throws UsageError in words. */
export function parseSmokeArgs(argv: string[], env: NodeJS.ProcessEnv): SmokeArgs {
  let url: URL | null = null;
  let headed = false;
  let junit = env.SMOKE_JUNIT || null;
  let outDir = env.SMOKE_OUTPUT_DIR || "smoke-results";
  for (const arg of argv) {
    if (CREDENTIAL_FLAG.test(arg)) {
      throw new UsageError(`${arg.split("=")[0]}: credentials are never taken from the command line (other users see it in the process list); set SMOKE_USERNAME and SMOKE_PASSWORD in the environment`);
    }
    if (arg === "--headed") headed = true;
    else if (arg.startsWith("--junit=") && arg.length > "--junit=".length) junit = arg.slice("--junit=".length);
    else if (arg.startsWith("--out=") && arg.length > "--out=".length) outDir = arg.slice("--out=".length);
    else if (arg.startsWith("-")) throw new UsageError(`${arg}: unknown option`);
    else if (url) throw new UsageError(`${arg}: only one URL, please (the app's is ${url.href})`);
    else {
      try {
        url = new URL(arg);
      } catch {
        throw new UsageError(`${arg}: not a URL; give the app's address, e.g. https://partner.example.com`);
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${arg}: the app's URL must start with http:// or https://`);
    }
  }
  if (!url) throw new UsageError("the app's URL is missing");
  const missing = ["SMOKE_USERNAME", "SMOKE_PASSWORD"].filter((key) => !env[key]);
  if (missing.length > 0) throw new UsageError(`${missing.join(" and ")} not set: the test account's credentials come from the environment only`);
  return { url, headed, junit, outDir, signInHook: env.SMOKE_SIGN_IN || null };
}
