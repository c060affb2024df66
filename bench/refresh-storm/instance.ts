/**
 * One app instance for the refresh-storm bench, run in its own worker thread (bench/lib/app-worker.ts): its own
 * config, session store connection and in-flight refresh map, as a separate server process would have.
 */
import { resolveSession } from "@/lib/session/current-session";
import { createSession, readSession } from "@/lib/session/sessions";
import type { TokenSet } from "../../tests/sandbox/support/oauth";
import { serveCalls } from "../lib/app-worker";
import { sessionRecordFromTokens } from "../lib/session-from-tokens";

const SCOPE = "openid profile email service.api offline_access";
/** Older than sessions.ts's touch interval (a minute): the next read of such a session also writes its last-seen time. */
const LONG_AGO_MS = 2 * 60_000;

// Token-endpoint calls made by this instance, so the run can tell the instance that refreshed from the one that waited.
let tokenCalls = 0;
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url.endsWith("/connect/token")) tokenCalls += 1;
  return realFetch(input, init);
};

async function timeEach(count: number, operation: (i: number) => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await operation(i);
    ms.push(performance.now() - started);
  }
  return ms;
}

export type StormRequest = { accessToken: string | null; status: string; ms: number };

const handlers = {
  /** Stores a session for `tokens` whose access token expires at `accessTokenExpiresAt` (epoch s); returns its handle. */
  async create({ tokens, accessTokenExpiresAt }: { tokens: TokenSet; accessTokenExpiresAt: number }): Promise<string> {
    return createSession({ ...sessionRecordFromTokens(tokens, SCOPE), accessTokenExpiresAt });
  },

  /**
   * Sequential reads of one session whose token is not due, through readSession and through resolveSession (what
   * proxy.ts and route handlers call); then reads that also write the last-seen time, one per session last seen
   * long ago (sessions.ts does that at most once a minute per session).
   */
  async readCost({ tokens, reads, warmUp }: { tokens: TokenSet; reads: number; warmUp: number }) {
    const handle = await handlers.create({ tokens, accessTokenExpiresAt: Math.floor(Date.now() / 1000) + 3600 });
    await timeEach(warmUp, () => resolveSession(handle, true));
    const read = await timeEach(reads, () => readSession(handle));
    const resolved = await timeEach(reads, () => resolveSession(handle, true));
    const longAgo = Date.now() - LONG_AGO_MS;
    const record = { ...sessionRecordFromTokens(tokens, SCOPE), accessTokenExpiresAt: Math.floor(Date.now() / 1000) + 3600 };
    const stale: string[] = [];
    for (let i = 0; i < Math.min(reads, 300); i++) stale.push(await createSession(record, { createdAt: longAgo, lastSeenAt: longAgo }));
    const touched = await timeEach(stale.length, (i) => readSession(stale[i]!));
    return { read, resolved, touched };
  },

  /** `n` requests of one session at once, as proxy.ts makes them: each resolves the session (refreshing if due). */
  async storm({ handle, n }: { handle: string; n: number }): Promise<{ requests: StormRequest[]; tokenCalls: number }> {
    tokenCalls = 0;
    const requests = await Promise.all(
      Array.from({ length: n }, async (): Promise<StormRequest> => {
        const started = performance.now();
        const state = await resolveSession(handle, true);
        const ms = performance.now() - started;
        if (state.status !== "active") return { accessToken: null, status: state.status, ms };
        return { accessToken: state.record.error ? null : (state.record.accessToken ?? null), status: state.record.error ?? "active", ms };
      }),
    );
    return { requests, tokenCalls };
  },
};

export type InstanceHandlers = typeof handlers;

serveCalls(handlers);
