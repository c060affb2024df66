/**
 * Refresh storm: N requests of one session arrive together just after its access token expired.
 * Runs the app's own rotation code (lib/auth/rotate-tokens.ts) against a real sandbox, once with the
 * single-flight store and once with it switched off (a pass-through store), and prints how many
 * times the token endpoint was called and how many requests ended without a working token.
 *
 *   npm run bench:refresh-storm
 */
import type { SessionToken } from "@/lib/auth/session-token";
import { startSandbox } from "../sandbox/index";
import { partnerTokens } from "../tests/sandbox/support/oauth";

const PORTS = { authPort: 4300, apiPort: 4301, blobPort: 4302 };
const SIZES = [1, 10, 50];

// The app reads its configuration from the environment; point it at this run's sandbox.
Object.assign(process.env, {
  AUTH_SECRET: "bench-only-secret-0123456789abcdef0123456789",
  ESIGN_USE_SANDBOX: "true",
  ESIGN_AUTH_URL: `http://localhost:${PORTS.authPort}`,
  ESIGN_API_URL: `http://localhost:${PORTS.apiPort}`,
});

const { rotateTokensIfNeeded } = await import("@/lib/auth/rotate-tokens");
const { createMemoryRefreshStore, setRefreshStore } = await import("@/lib/auth/refresh-store");

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

const silence = console.warn;
console.warn = () => {}; // rotate-tokens logs each failed refresh; the table says it better
const rows: string[] = [];
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
} finally {
  console.warn = silence;
  await sandbox.stop();
}

console.log(`
Refresh storm: N parallel requests of one session right after its access token expired
  N │ calls │ failures │ elapsed  │ calls*  │ failures* │ reuse* │ calls ratio │ failed* of N
────┼───────┼──────────┼──────────┼─────────┼───────────┼────────┼─────────────┼─────────────
${rows.join("\n")}
  (* = single-flight switched off; calls = token-endpoint calls; a failure = the request ended without a
   token the API accepts; reuse = refresh-token reuse events the sandbox detected and answered by revoking)`);
