/**
 * `npm run doctor [-- --json]`: checks this configuration against the service before any user signs in.
 * Reads the environment the way `next start`/`next dev` do (.env, .env.local, .env.<mode>…; the process
 * environment wins). Exit code 0 when every check passes (warnings included), 1 otherwise.
 */
import nextEnv from "@next/env";
import { runDoctor } from "@/lib/doctor/run-doctor";
import { formatJson, formatText, passed } from "@/lib/doctor/report";

const json = process.argv.includes("--json");
nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production", { info: () => {}, error: console.error });

const results = await runDoctor(process.env);
process.stdout.write(`${json ? formatJson(results) : formatText(results)}\n`);
process.exitCode = passed(results) ? 0 : 1;
