import "server-only";
import { randomUUID } from "node:crypto";
import type { JWTPayload } from "jose";
import { getConfig } from "@/lib/env";
import { refreshTokens, TokenRefreshError } from "@/lib/esign/client";
import type { TokenResponse } from "@/lib/esign/schemas";
import { isKeysUnavailable, verifyIdToken } from "@/lib/auth/id-token";
import { getLogger } from "@/lib/logging/logger";
import { recordRefresh, recordRefreshLockWait } from "@/lib/metrics/refresh";
import { currentRequestId } from "@/lib/logging/request-context";
import { revokeRefreshTokens } from "@/lib/session/revoke-refresh-tokens";
import { isRefreshDue, type SessionRecord } from "@/lib/session/session-record";
import type { UpdateOutcome } from "@/lib/session/session-store";
import { readSessionById, saveIssuedTokens, saveSession, type StoredSession } from "@/lib/session/sessions";
import { getSessionStore } from "@/lib/session/store-instance";
import { accessTokenLifetime } from "@/lib/session/token-lifetime";

/**
 * The refresh lock's lifetime, renewed every third of it while the holder works: a holder that dies blocks the
 * session's refresh for at most this long. A holder that loses it all the same (renewals refused, or failing
 * for a whole lifetime: Redis stalled) redeems nothing more and has its writes refused (fencing, see Lock).
 */
export const LOCK_TTL_MS = 5_000;
const LOCK_RENEW_MS = LOCK_TTL_MS / 3;
/** Waiters re-read the session this often while another instance refreshes it. */
const WAIT_POLL_MS = 50;
/** Discovery (10 s) and the JWKS (jose, 5 s): the most a verification can take. */
const VERIFY_BUDGET_MS = 15_000;

const log = () => getLogger();

/** Tokens from a token response, as the session keeps them. */
export function issuedTokens(response: TokenResponse, previous?: SessionRecord): Partial<SessionRecord> {
  const lifetime = accessTokenLifetime(response.access_token, response.expires_in);
  return {
    accessToken: response.access_token,
    // The service rotates on every refresh; keep the old one only if a response ever omits it.
    refreshToken: response.refresh_token ?? previous?.refreshToken,
    accessTokenExpiresAt: Math.floor(Date.now() / 1000) + lifetime,
    accessTokenLifetime: lifetime,
    // A refresh response without `scope` means the scope is unchanged (RFC 6749 §5.1).
    grantedScope: response.scope ?? previous?.grantedScope,
  };
}

type Verification = { ok: true; payload: JWTPayload } | { ok: false; unavailable: boolean; detail: string };

async function verify(idToken: string, subject: string): Promise<Verification> {
  try {
    const payload = await verifyIdToken(idToken);
    // OIDC Core §12.2: a refreshed id_token must name the same user.
    if (payload.sub !== subject) return { ok: false, unavailable: false, detail: "the id_token names another subject" };
    return { ok: true, payload };
  } catch (error) {
    return { ok: false, unavailable: isKeysUnavailable(error), detail: error instanceof Error ? error.message : String(error) };
  }
}

function ended(record: SessionRecord, detail: string): SessionRecord {
  recordRefresh("rejected");
  log().warn({ msg: `token refresh failed, session ends: ${detail}`, requestId: currentRequestId() });
  const rest = { ...record };
  delete rest.accessToken;
  delete rest.refreshToken;
  return { ...rest, error: "RefreshRejected" };
}

/** The refresh lock as its holder sees it: `lost` once a renewal was refused or none succeeded for a lifetime. */
type Lock = { owner: string; lost: boolean };

/** Why a refresh's result was not written: the session ended meanwhile, or another holder took the lock over. */
class Discarded extends Error {
  constructor(readonly outcome: Exclude<UpdateOutcome, "written">) {
    super(outcome);
  }
}

/**
 * The one place a refresh writes its result: conditional on the session still existing (a sign-out meanwhile
 * wins) and fenced by the refresh lock, checked atomically with the write (SessionStore.update). Throws
 * Discarded when it was not written.
 */
async function saveRefreshed(session: StoredSession, record: SessionRecord, lock: Lock): Promise<void> {
  const outcome = lock.lost ? "lock-lost" : await saveIssuedTokens(session, record, lock.owner);
  if (outcome !== "written") throw new Discarded(outcome);
}

/**
 * One refresh, by the lock holder, on the session as it is now. Once the token endpoint has answered 200 the new
 * tokens are written before anything else can fail: the old refresh token is spent. An id_token that cannot be
 * checked for want of keys is kept, marked, and checked at the next refresh; one that is checked and bad ends
 * the session.
 */
async function refreshHeld(session: StoredSession, lock: Lock): Promise<SessionRecord> {
  let record = session.record;
  const save = (next: SessionRecord) => saveRefreshed(session, next, lock);

  if (record.idTokenUnverified && record.idToken) {
    const pending = await verify(record.idToken, record.subject);
    if (!pending.ok && !pending.unavailable) {
      record = ended(record, `the id_token kept from the last refresh failed its check: ${pending.detail}`);
      await save(record);
      return record;
    }
  }

  // Lost while the pending check ran: the next holder may be redeeming this refresh token already.
  if (lock.lost) throw new Discarded("lock-lost");
  let response: TokenResponse;
  try {
    response = await refreshTokens(record.refreshToken!);
  } catch (error) {
    if (error instanceof TokenRefreshError && error.reason !== "rejected") {
      // Neither a blip at the token endpoint nor the app's own client refused (a configuration fault, logged once
      // per outage with its fix) must sign anyone out: keep the session and its refresh token, try again next request.
      recordRefresh(error.reason === "misconfigured" ? "misconfigured" : "deferred");
      log().warn({ msg: `token refresh deferred: ${error.message}`, requestId: currentRequestId() });
      return record;
    }
    record = ended(record, error instanceof Error ? error.message : String(error));
    await save(record);
    return record;
  }

  record = { ...record, ...issuedTokens(response, record), ...(response.id_token ? { idToken: response.id_token, idTokenUnverified: true } : {}) };
  try {
    await save(record);
  } catch (error) {
    // Signed out while the token call ran: the tokens it issued go back to the service unused.
    if (error instanceof Discarded && error.outcome === "gone" && record.refreshToken) await revokeRefreshTokens([record.refreshToken]);
    throw error;
  }
  if (!response.id_token) {
    recordRefresh("refreshed");
    return record;
  }

  const check = await verify(response.id_token, record.subject);
  if (check.ok) {
    recordRefresh("refreshed");
    const oidcSid = typeof check.payload.sid === "string" ? check.payload.sid : record.oidcSid;
    record = { ...record, idTokenUnverified: false, ...(oidcSid ? { oidcSid } : {}) };
  } else if (check.unavailable) {
    recordRefresh("refreshed");
    log().warn({ msg: `refreshed id_token kept unverified until the next refresh: ${check.detail}`, requestId: currentRequestId() });
    return record;
  } else {
    record = ended(record, `refreshed id_token not verified: ${check.detail}`);
  }
  await save(record);
  return record;
}

/**
 * Holds the session's refresh lock for `work`, renewing it until `work` settles. A renewal refused, or none
 * answered for a whole lock lifetime, marks the lock lost: `work` then redeems nothing and writes nothing.
 */
async function withLock<T>(id: string, owner: string, work: (lock: Lock) => Promise<T>): Promise<T> {
  const store = getSessionStore();
  const lock: Lock = { owner, lost: false };
  let renewedAt = Date.now();
  const lose = (why: string) => {
    if (lock.lost) return;
    lock.lost = true;
    log().warn({ msg: `refresh lock lost while refreshing (${why}): this refresh writes nothing`, requestId: currentRequestId() });
  };
  const renewal = setInterval(() => {
    store.renewLock(id, owner, LOCK_TTL_MS).then(
      (held) => (held ? (renewedAt = Date.now()) : lose("another holder has it")),
      (error: unknown) => {
        if (Date.now() - renewedAt >= LOCK_TTL_MS) lose(`not renewed for ${LOCK_TTL_MS} ms: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }, LOCK_RENEW_MS);
  try {
    return await work(lock);
  } finally {
    clearInterval(renewal);
    await store.releaseLock(id, owner).catch(() => {});
  }
}

/** Under the lock: refresh when still due, else re-seal when due; a discarded write leaves the store's session. */
async function refreshUnderLock(id: string, waitedFor: StoredSession, lock: Lock): Promise<SessionRecord | null> {
  const current = await readSessionById(id);
  if (!current) return null;
  try {
    if (isRefreshDue(current.record)) return await refreshHeld(current, lock);
    // Refreshed by another holder a moment ago: its tokens, not a second redemption.
    if (isRefreshDue(waitedFor.record)) recordRefresh("replayed");
    if (current.resealDue && (await saveSession(id, current.record, lock.owner)) === "gone") return null;
    return current.record;
  } catch (error) {
    if (!(error instanceof Discarded)) throw error;
    log().warn({ msg: `token refresh discarded: ${error.outcome === "gone" ? "the session ended meanwhile" : "the refresh lock was lost"}`, requestId: currentRequestId() });
    if (error.outcome === "gone") return null;
    return (await readSessionById(id))?.record ?? null;
  }
}

/**
 * Refreshes the session's tokens once across every instance: the first request takes the store's lock and
 * re-reads the session under it; the others poll the session until it no longer needs a refresh, or take the
 * lock over if its holder died. A waiter that runs out of time gets the session as it is (deferred). The holder
 * also seals a session again that only a previous AUTH_SECRET or the older format opens (seal.ts).
 */
async function refreshAcrossInstances(session: StoredSession): Promise<SessionRecord | null> {
  const store = getSessionStore();
  const owner = randomUUID();
  const waitingSince = Date.now();
  const giveUpAt = waitingSince + getConfig().requestTimeoutMs + 2 * VERIFY_BUDGET_MS + LOCK_TTL_MS;
  for (;;) {
    if (await store.tryLock(session.id, owner, LOCK_TTL_MS)) {
      return withLock(session.id, owner, (lock) => refreshUnderLock(session.id, session, lock));
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    const current = await readSessionById(session.id);
    if (!current || !isDue(current)) {
      recordRefreshLockWait((Date.now() - waitingSince) / 1000);
      if (current) recordRefresh("waited");
      return current?.record ?? null;
    }
    if (Date.now() > giveUpAt) {
      recordRefresh("deferred");
      log().warn({ msg: "token refresh deferred: another instance is still refreshing this session", requestId: currentRequestId() });
      return current.record;
    }
  }
}

/** Tokens to refresh, or a seal to renew (an AUTH_SECRET rotation, or the format before the id was bound). */
function isDue(session: StoredSession): boolean {
  return isRefreshDue(session.record) || session.resealDue;
}

const IN_FLIGHT_KEY = Symbol.for("esign.refreshesInFlight");
type GlobalWithRefreshes = typeof globalThis & { [IN_FLIGHT_KEY]?: Map<string, Promise<SessionRecord | null>> };

/**
 * The session's record with tokens fit to use: refreshed first when the access token is due. Requests of one
 * process share one refresh per session (on globalThis: proxy, route handlers and pages get separate module
 * instances); instances share one through the store's lock. Null when the session ended meanwhile.
 */
export async function refreshIfDue(session: StoredSession): Promise<SessionRecord | null> {
  if (!isDue(session)) return session.record;
  const g = globalThis as GlobalWithRefreshes;
  const inFlight = (g[IN_FLIGHT_KEY] ??= new Map());
  const running = inFlight.get(session.id);
  if (running) {
    recordRefresh("waited");
    return running;
  }
  const refresh = refreshAcrossInstances(session).finally(() => inFlight.delete(session.id));
  inFlight.set(session.id, refresh);
  return refresh;
}
