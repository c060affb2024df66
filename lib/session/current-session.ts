import "server-only";
import { cache } from "react";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";
import { accessTokenState, type SessionRecord } from "@/lib/session/session-record";
import { refreshIfDue } from "@/lib/session/session-refresh";
import { isSessionStoreUnavailable } from "@/lib/session/session-store";
import { readSession, type StoredSession } from "@/lib/session/sessions";

/**
 * What a request's session cookie leads to:
 * - `active`: a live session, its tokens refreshed if they were due (the record may carry an `error`);
 * - `ended`: the handle names no session any more (signed out, idle or too old, ended from another device or by
 *   the service's back-channel logout): the browser is signed out;
 * - `unavailable`: the store cannot answer; nobody is signed out, the request gets a 503.
 */
export type SessionState =
  | { status: "active"; id: string; record: SessionRecord }
  | { status: "ended" }
  | { status: "unavailable" };

/**
 * Set by proxy.ts on every request it passes on, after it has read the session and refreshed due tokens: the
 * page or route handler behind it then only reads, so one request makes at most one refresh attempt (a
 * deferred one is not retried by the next reader of the same request). proxy.ts overwrites any client's value.
 */
export const SESSION_REFRESHED_HEADER = "x-esign-session-refreshed";

const OUTAGE_KEY = Symbol.for("esign.sessionStoreOutage");
type GlobalWithOutage = typeof globalThis & { [OUTAGE_KEY]?: boolean };

/** One warning per outage of the store, not one per signed-in request: the first failure logs, an answer re-arms. */
function storeUnavailable(error: Error): void {
  const g = globalThis as GlobalWithOutage;
  if (g[OUTAGE_KEY]) return;
  g[OUTAGE_KEY] = true;
  getLogger().warn({ msg: `session store unavailable: ${error.message}; signed-in requests get a 503 until it answers`, requestId: currentRequestId() });
}

function storeAnswered(): void {
  const g = globalThis as GlobalWithOutage;
  if (!g[OUTAGE_KEY]) return;
  g[OUTAGE_KEY] = false;
  getLogger().info({ msg: "session store answers again" });
}

async function resolve(handle: string, refresh: boolean): Promise<SessionState> {
  let session: StoredSession | null;
  try {
    session = await readSession(handle);
    if (!session) return { status: "ended" };
    const record = refresh ? await refreshIfDue(session) : session.record;
    if (!record) return { status: "ended" };
    // Without offline_access (the shared development client) the session can call the service until its access
    // token lapses, then asks for a new sign-in.
    if (!record.error && accessTokenState(record).status === "expired") return { status: "active", id: session.id, record: { ...record, error: "SessionExpired" } };
    storeAnswered();
    return { status: "active", id: session.id, record };
  } catch (error) {
    if (!isSessionStoreUnavailable(error)) throw error;
    storeUnavailable(error);
    return { status: "unavailable" };
  }
}

/**
 * The session behind a cookie's handle, its tokens refreshed first when due unless `refresh` is false (see
 * SESSION_REFRESHED_HEADER). Memoised per server render (React's cache), so a page whose header, notice and body
 * each ask reads the store once.
 */
export const resolveSession: (handle: string, refresh: boolean) => Promise<SessionState> = cache(resolve);

/** Whether a reader behind proxy.ts should still refresh: only when proxy.ts did not already (see the header). */
export function shouldRefresh(requestHeaders: Pick<Headers, "get">): boolean {
  return requestHeaders.get(SESSION_REFRESHED_HEADER) === null;
}
