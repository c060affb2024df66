import "server-only";
import { getConfig } from "@/lib/env";
import { onDependencyScrape, setDependencyUp } from "@/lib/metrics/availability";
import { pingDatabase } from "@/lib/db/client";
import { describeDatabaseFailure } from "@/lib/db/database-errors";
import { getRedisConnection, pingRedis } from "@/lib/redis/connection";

/** Each probe gets at most this long. */
export const PROBE_DEADLINE_MS = 2_000;
/**
 * A probe round runs at most once per this interval per instance, whatever the number of readiness hits or
 * scrapes: 1,000 hits in 10 s make at most two rounds (one upstream call per dependency each).
 */
export const PROBE_INTERVAL_MS = 5_000;

export type DependencyState = {
  name: string;
  state: "ok" | "fail" | "unknown";
  latencyMs?: number;
  detail?: string;
  /** Seconds since the probe finished; absent before the first one. */
  ageSeconds?: number;
};

type Probe = { name: string; run: (signal: AbortSignal) => Promise<void> };
type Result = { name: string; state: "ok" | "fail"; latencyMs: number; detail?: string; finishedAt: number };
type ProbeCache = { results: Result[]; startedAt: number; running?: Promise<void>; extra: Probe[] };

const CACHE_KEY = Symbol.for("esign.dependencyProbes");

// On globalThis: the readiness route, the metrics collector and other bundles share one cache per process.
function cache(): ProbeCache {
  const g = globalThis as typeof globalThis & { [CACHE_KEY]?: ProbeCache };
  g[CACHE_KEY] ??= { results: [], startedAt: 0, extra: [] };
  return g[CACHE_KEY];
}

/** Adds a dependency to the probe round (e.g. the session store); its state is reported, never readiness. */
export function registerDependencyProbe(name: string, run: (signal: AbortSignal) => Promise<void>): void {
  const extra = cache().extra.filter((p) => p.name !== name);
  cache().extra = [...extra, { name, run }];
}

/** Any answer below 500 means the server is up: probes call without a token, so 401 is the usual answer. */
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

function probes(): Probe[] {
  const { authUrl, apiUrl, redisUrl } = getConfig();
  const list: Probe[] = [
    { name: "auth", run: (signal) => answersWithoutServerError(`${authUrl}/.well-known/openid-configuration`, signal, true) },
    { name: "api", run: (signal) => answersWithoutServerError(`${apiUrl}/api/getuserinfo`, signal) },
  ];
  if (redisUrl) {
    list.push({
      name: "redis",
      // The session store's own connection: this reports whether the sessions the app relies on can be read.
      run: async () => {
        if (!(await pingRedis(getRedisConnection(redisUrl)))) throw new Error("no PONG (unreachable or refused)");
      },
    });
  }
  list.push({
    name: "database",
    // The document records (PGlite or PostgreSQL). Uploads never wait on it, so like the others it never fails readiness.
    run: async () => {
      try {
        await pingDatabase();
      } catch (error) {
        throw new Error(describeDatabaseFailure(error));
      }
    },
  });
  return [...list, ...cache().extra];
}

async function runProbe(probe: Probe): Promise<Result> {
  const started = performance.now();
  const signal = AbortSignal.timeout(PROBE_DEADLINE_MS);
  const deadline = new Promise<never>((_, reject) =>
    signal.addEventListener("abort", () => reject(new Error(`no answer within ${PROBE_DEADLINE_MS} ms`)), { once: true }),
  );
  const finish = (state: "ok" | "fail", detail?: string): Result => ({
    name: probe.name,
    state,
    latencyMs: Math.round(performance.now() - started),
    finishedAt: Date.now(),
    ...(detail ? { detail } : {}),
  });
  try {
    await Promise.race([probe.run(signal), deadline]);
    return finish("ok");
  } catch (error) {
    // Built from status and error codes only: never a URL, header or secret.
    return finish("fail", (error as Error).message);
  }
}

/** Starts a probe round unless one is running or the last one started less than PROBE_INTERVAL_MS ago. */
export function probeDependenciesIfStale(): Promise<void> {
  const state = cache();
  if (state.running) return state.running;
  if (Date.now() - state.startedAt < PROBE_INTERVAL_MS) return Promise.resolve();
  state.startedAt = Date.now();
  state.running = Promise.all(probes().map(runProbe))
    .then((results) => {
      state.results = results;
      for (const result of results) setDependencyUp(result.name, result.state === "ok");
    })
    .finally(() => {
      state.running = undefined;
    });
  return state.running;
}

/**
 * The last known state of each dependency, without waiting for any of them: a hung dependency must never
 * make a readiness probe time out. A stale state starts a new round in the background.
 */
export function dependencyStates(): DependencyState[] {
  void probeDependenciesIfStale();
  const known = new Map(cache().results.map((r) => [r.name, r]));
  return probes().map(({ name }) => {
    const result = known.get(name);
    if (!result) return { name, state: "unknown" };
    const { finishedAt, ...rest } = result;
    return { ...rest, ageSeconds: Math.round((Date.now() - finishedAt) / 1000) };
  });
}

/** Makes every scrape refresh stale dependency gauges too, so alerts work without anyone probing readiness. */
export function probeDependenciesOnScrape(): void {
  onDependencyScrape(() => void probeDependenciesIfStale());
}
