import "server-only";
import { getConfig, parseConfig } from "@/lib/env";
import { getRedisConnection, pingRedis } from "@/lib/redis/connection";

/** Each dependency gets at most this long; a readiness probe must answer well within the orchestrator's timeout. */
export const CHECK_DEADLINE_MS = 2_000;

export type CheckResult = { name: string; state: "ok" | "fail"; latencyMs: number; detail?: string };
export type Readiness = { status: "ready" | "not_ready"; checks: CheckResult[] };

type Check = { name: string; run: (signal: AbortSignal) => Promise<void> };

/** Any answer below 500 means the server is up: readiness calls without a token, so 401 is the usual answer. */
async function answersWithoutServerError(url: string, signal: AbortSignal, expectOk = false): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { signal, cache: "no-store", redirect: "manual" });
  } catch (error) {
    throw new Error(signal.aborted ? "no answer in time" : `unreachable (${causeCode(error)})`);
  }
  await response.body?.cancel();
  if (response.status >= 500 || (expectOk && !response.ok)) throw new Error(`answered ${response.status}`);
}

function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? "network error";
}

/** The checks for this configuration; Redis only when REDIS_URL is set. */
function checks(): Check[] {
  const list: Check[] = [
    {
      name: "config",
      run: async () => {
        // Parsed afresh (not the cached config) so the check reports what this process's environment holds.
        parseConfig(process.env);
      },
    },
    {
      name: "auth",
      run: (signal) => answersWithoutServerError(`${getConfig().authUrl}/.well-known/openid-configuration`, signal, true),
    },
    { name: "api", run: (signal) => answersWithoutServerError(`${getConfig().apiUrl}/api/getuserinfo`, signal) },
  ];
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    list.push({
      name: "redis",
      // The refresh store's own connection: readiness reports whether the coordination the app relies on works.
      run: async () => {
        if (!(await pingRedis(getRedisConnection(redisUrl)))) throw new Error("no PONG (unreachable or refused)");
      },
    });
  }
  return list;
}

async function runCheck(check: Check): Promise<CheckResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(CHECK_DEADLINE_MS);
  const deadline = new Promise<never>((_, reject) =>
    signal.addEventListener("abort", () => reject(new Error(`no answer within ${CHECK_DEADLINE_MS} ms`)), { once: true }),
  );
  try {
    await Promise.race([check.run(signal), deadline]);
    return { name: check.name, state: "ok", latencyMs: elapsed(started) };
  } catch (error) {
    // Messages are built here from status codes and error codes only: never a URL, header or secret.
    const detail = check.name === "config" ? "configuration is invalid (see the start-up log)" : (error as Error).message;
    return { name: check.name, state: "fail", latencyMs: elapsed(started), detail };
  }
}

const elapsed = (started: number) => Math.round(performance.now() - started);

/** Runs every check in parallel; ready only when all pass. */
export async function checkReadiness(): Promise<Readiness> {
  const results = await Promise.all(checks().map(runCheck));
  return { status: results.every((r) => r.state === "ok") ? "ready" : "not_ready", checks: results };
}
