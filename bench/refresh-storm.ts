/**
 * Refresh storm: N requests of one session arrive together just after its access token expired.
 * Runs the app's own rotation code (lib/auth/rotate-tokens.ts) against a real sandbox, once with the
 * single-flight store and once with it switched off (a pass-through store), and prints how many
 * times the token endpoint was called and how many requests ended without a working token.
 *
 * Two-instance mode (second table): the N requests alternate between two app instances, each with its own
 * in-process map and, in the Redis column, its own connection to a real redis-server (the shared store of
 * lib/auth/redis-refresh-store.ts) — against the in-memory store only, where each instance refreshes alone.
 *
 *   npm run bench:refresh-storm      (BENCH_REDIS_PORT, default 4610)
 */
import type { SessionToken } from "@/lib/auth/session-token";
import type { RefreshStore } from "@/lib/auth/refresh-store";
import { startSandbox } from "../sandbox/index";
import { partnerTokens } from "../tests/sandbox/support/oauth";
import { startRedisServer } from "../scripts/lib/redis-server";

const PORTS = { authPort: 4300, apiPort: 4301, blobPort: 4302 };
const REDIS_PORT = Number(process.env.BENCH_REDIS_PORT ?? 4610);
const SIZES = [1, 10, 50];
const TWO_INSTANCE_SIZES = [10, 50];
/** Storms per size in two-instance mode, so the p99 of the added latency rests on a few hundred requests. */
const ROUNDS = 5;

// The app reads its configuration from the environment; point it at this run's sandbox.
Object.assign(process.env, {
  AUTH_SECRET: "bench-only-secret-0123456789abcdef0123456789",
  ESIGN_USE_SANDBOX: "true",
  ESIGN_AUTH_URL: `http://localhost:${PORTS.authPort}`,
  ESIGN_API_URL: `http://localhost:${PORTS.apiPort}`,
});

const { rotateTokensIfNeeded } = await import("@/lib/auth/rotate-tokens");
const { createMemoryRefreshStore, setRefreshStore, REPLAY_GRACE_MS } = await import("@/lib/auth/refresh-store");
const { createRedisRefreshStore, LOCK_MARGIN_MS } = await import("@/lib/auth/redis-refresh-store");
const { connectRedis } = await import("@/lib/redis/connection");
const { refreshTokens, TokenRefreshError } = await import("@/lib/esign/client");
const { getConfig } = await import("@/lib/env");

const sandbox = await startSandbox({ ...PORTS, redirectUris: ["http://localhost:3000/api/auth/callback/esign"] });

type Stats = { grants: { refresh_token: number }; tokenErrors: Record<string, number>; refreshReuse: number };
const stats = async (): Promise<Stats> => (await fetch(`${sandbox.apiUrl}/_sandbox/stats`)).json() as Promise<Stats>;

async function works(token: SessionToken): Promise<boolean> {
  if (token.error || !token.accessToken) return false;
  const res = await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${token.accessToken}` } });
  await res.body?.cancel();
  return res.status === 200;
}

async function storm(n: number, singleFlight: boolean) {
  setRefreshStore(singleFlight ? createMemoryRefreshStore() : { run: (_token, refresh) => refresh() });
  const issued = await partnerTokens(sandbox);
  // A session whose access token lapsed a second ago.
  const session: SessionToken = {
    accessToken: issued.access_token,
    refreshToken: issued.refresh_token,
    accessTokenExpiresAt: Math.floor(Date.now() / 1000) - 1,
    accessTokenLifetime: issued.expires_in,
  };
  await fetch(`${sandbox.apiUrl}/_sandbox/reset`, { method: "POST" });
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: n }, () => rotateTokensIfNeeded({ ...session })));
  const elapsedMs = performance.now() - started;
  // A request "fails" if it ends without a token the API accepts (reuse detection revokes the whole grant).
  const ok = await Promise.all(results.map(works));
  const s = await stats();
  const calls = s.grants.refresh_token + Object.values(s.tokenErrors).reduce((a, b) => a + b, 0);
  return { calls, failures: ok.filter((v) => !v).length, reuse: s.refreshReuse, elapsedMs };
}

const redis = await startRedisServer(REDIS_PORT);
const quiet = { warn: () => {}, info: () => {} };

/** Two instances' stores: each its own in-process map, and with Redis its own connection. */
function twoInstances(withRedis: boolean) {
  const connections = withRedis ? [connectRedis(redis.url, quiet), connectRedis(redis.url, quiet)] : [];
  const stores: RefreshStore[] = withRedis
    ? connections.map((connection) =>
        createRedisRefreshStore({
          connection,
          secret: getConfig().authSecrets[0]!,
          local: createMemoryRefreshStore(),
          lockTtlMs: getConfig().requestTimeoutMs + LOCK_MARGIN_MS,
          graceMs: REPLAY_GRACE_MS,
        }),
      )
    : [createMemoryRefreshStore(), createMemoryRefreshStore()];
  return { stores, close: () => Promise.all(connections.map((c) => c.close())) };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

/** ROUNDS storms of n requests alternating between two instances; one fresh session per storm. */
async function twoInstanceStorm(n: number, withRedis: boolean) {
  const totals = { calls: 0, failures: 0, reuse: 0, requests: 0 };
  const added: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { stores, close } = twoInstances(withRedis);
    // Let both connections finish their handshake, as a running instance's would have.
    await new Promise((r) => setTimeout(r, 100));
    const issued = await partnerTokens(sandbox);
    await fetch(`${sandbox.apiUrl}/_sandbox/reset`, { method: "POST" });
    let tokenCallMs = 0;
    const refresh = async () => {
      const started = performance.now();
      try {
        return await refreshTokens(issued.refresh_token!);
      } finally {
        tokenCallMs ||= performance.now() - started;
      }
    };
    const outcomes = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const started = performance.now();
        const tokens = await stores[i % 2]!.run(issued.refresh_token!, refresh).catch((error: unknown) => {
          if (error instanceof TokenRefreshError) return null;
          throw error;
        });
        return { tokens, ms: performance.now() - started };
      }),
    );
    // A request "fails" if it ends without a token the API accepts (reuse detection revokes the whole grant).
    const ok = await Promise.all(
      outcomes.map((o) => works({ accessToken: o.tokens?.access_token, refreshToken: o.tokens?.refresh_token, accessTokenExpiresAt: 0, accessTokenLifetime: 0 })),
    );
    const s = await stats();
    totals.calls += s.grants.refresh_token + Object.values(s.tokenErrors).reduce((a, b) => a + b, 0);
    totals.failures += ok.filter((v) => !v).length;
    totals.reuse += s.refreshReuse;
    totals.requests += n;
    // What coordination costs on top of the one token call: lock and result scripts, polling.
    for (const o of outcomes) added.push(o.ms - tokenCallMs);
    await close();
  }
  return { ...totals, p50: percentile(added, 50), p99: percentile(added, 99) };
}

const silence = console.warn;
console.warn = () => {}; // rotate-tokens logs each failed refresh; the table says it better
const rows: string[] = [];
const twoRows: string[] = [];
try {
  for (const n of SIZES) {
    const on = await storm(n, true);
    const off = await storm(n, false);
    rows.push(
      [
        String(n).padStart(3),
        `${on.calls}`.padStart(6),
        `${on.failures}`.padStart(8),
        `${on.elapsedMs.toFixed(0)} ms`.padStart(8),
        `${off.calls}`.padStart(7),
        `${off.failures}`.padStart(9),
        `${off.reuse}`.padStart(6),
        `${(off.calls / on.calls).toFixed(1)}×`.padStart(10),
        `${off.failures}/${n}`.padStart(12),
      ].join(" │ "),
    );
  }
  for (const n of TWO_INSTANCE_SIZES) {
    const shared = await twoInstanceStorm(n, true);
    const alone = await twoInstanceStorm(n, false);
    twoRows.push(
      [
        String(n).padStart(3),
        `${shared.calls}/${ROUNDS}`.padStart(6),
        `${shared.failures}/${shared.requests}`.padStart(8),
        `${shared.reuse}`.padStart(5),
        `${shared.p50.toFixed(1)} / ${shared.p99.toFixed(1)} ms`.padStart(20),
        `${alone.calls}/${ROUNDS}`.padStart(7),
        `${alone.failures}/${alone.requests}`.padStart(9),
        `${alone.reuse}`.padStart(6),
      ].join(" │ "),
    );
  }
} finally {
  console.warn = silence;
  await sandbox.stop();
  await redis.stop();
}

console.log(`
Refresh storm: N parallel requests of one session right after its access token expired
  N │ calls │ failures │ elapsed  │ calls*  │ failures* │ reuse* │ calls ratio │ failed* of N
────┼───────┼──────────┼──────────┼─────────┼───────────┼────────┼─────────────┼─────────────
${rows.join("\n")}
  (* = single-flight switched off; calls = token-endpoint calls; a failure = the request ended without a
   token the API accepts; reuse = refresh-token reuse events the sandbox detected and answered by revoking)

Two instances: N parallel requests of one session alternating between two app instances, ${ROUNDS} storms per N
    │ with Redis (shared store)                              │ in-memory store only
  N │  calls │ failures │ reuse │ Redis adds p50 / p99 │   calls │  failures │  reuse
────┼────────┼──────────┼───────┼──────────────────────┼─────────┼───────────┼────────
${twoRows.join("\n")}
  (calls = token-endpoint calls over all storms, one storm needs 1; failures over all requests; "Redis adds" =
   each request's latency minus the one token call's, i.e. lock and result scripts plus polling)`);
