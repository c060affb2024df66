/**
 * Load: N concurrent signed-in sessions (distinct cookies) against the app's GET /api/account, beside the same
 * sessions' bearer tokens sent straight to the sandbox's GET /api/getuserinfo, in the same run, so the proxy's
 * cost reads as a difference and a ratio. Loopback only; each phase is bounded in time and count.
 *
 *   npm run bench:load
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { startSandbox } from "../../sandbox/index";
import { ensureProductionBuild, startApp } from "./app-server";
import { runLoad } from "./load";
import { signInSessions } from "./sessions";
import { formatTable, summarize, type ComparisonRow } from "./stats";

const SANDBOX_PORTS = { authPort: 4500, apiPort: 4501, blobPort: 4502 };
const APP_PORT = 3500;
// N = 1 first: with one session nothing queues, so its overhead is the proxy's own cost per request.
const SIZES = [1, 10, 50, 200];
const PHASE_MS = 5_000;
// Lets the server's JIT, connection pools and route modules settle before anything is measured.
const WARM_UP_MS = 1_000;
const MAX_REQUESTS_PER_PHASE = 500_000;

// Ctrl-C or a kill becomes a normal exit, so the exit hooks that stop `next start` and Azurite still run.
process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

ensureProductionBuild();
// A fresh secret per run: the cookies are only ever read by the app started below.
const authSecret = randomBytes(32).toString("base64url");
// An hour outlives the run, so proxy.ts never refreshes and both phases measure the same work.
const sandbox = await startSandbox({ ...SANDBOX_PORTS, accessTokenTtl: 3600 });
const rows: ComparisonRow[] = [];
try {
  const sessions = await signInSessions(sandbox, Math.max(...SIZES), authSecret);
  const app = await startApp(APP_PORT, {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    // As the app's sandbox default: the loopback address, not "localhost" (resolved per connection).
    ESIGN_API_URL: `http://127.0.0.1:${SANDBOX_PORTS.apiPort}`,
    AUTH_SECRET: authSecret,
    AUTH_URL: `http://localhost:${APP_PORT}`,
  });
  try {
    const directUrl = `http://127.0.0.1:${SANDBOX_PORTS.apiPort}/api/getuserinfo`;
    const appUrl = `${app.url}/api/account`;
    for (const n of SIZES) {
      const bearer = sessions.slice(0, n).map((s) => ({ authorization: `Bearer ${s.accessToken}` }));
      const cookies = sessions.slice(0, n).map((s) => ({ cookie: s.cookie }));
      const phase = (url: string, headers: Record<string, string>[], durationMs: number) =>
        runLoad({ url, sessions: headers, durationMs, maxRequests: MAX_REQUESTS_PER_PHASE });
      await phase(directUrl, bearer, WARM_UP_MS);
      const direct = summarize(await phase(directUrl, bearer, PHASE_MS));
      await phase(appUrl, cookies, WARM_UP_MS);
      const proxied = summarize(await phase(appUrl, cookies, PHASE_MS));
      rows.push({ sessions: n, direct, app: proxied });
      console.log(`N=${n}: direct ${direct.rps.toFixed(0)} req/s, app ${proxied.rps.toFixed(0)} req/s`);
    }
  } finally {
    await app.stop();
  }
} finally {
  await sandbox.stop();
}

console.log(`
Load: N sessions, each sending its next request when the last one answered, ${PHASE_MS / 1000} s per phase after ${WARM_UP_MS / 1000} s warm-up
Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "unknown"}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}
sandbox in this process, app = next start on 127.0.0.1:${APP_PORT}; figures from a shared machine vary between runs

${formatTable(rows)}

overhead = app minus direct at the same N; "× fewer" = direct req/s ÷ app req/s; an error is any answer but 200.`);
