import "server-only";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import { openRecord, sealRecord } from "@/lib/session/sealed-record";
import { newSessionHandle, storeName } from "@/lib/session/session-keys";
import { sessionExpiresAt, type SessionRecord } from "@/lib/session/session-record";
import { isSessionStoreUnavailable, type SessionEnvelope, type UpdateOutcome } from "@/lib/session/session-store";
import { getSessionStore } from "@/lib/session/store-instance";
import { dropUnsavedTokens, keepUnsavedTokens, unsavedSession } from "@/lib/session/unsaved-tokens";

/**
 * A session as read from the store: its store id, its decrypted record, the envelope it came in, and whether it
 * should be sealed again (under the current AUTH_SECRET, bound to its id: see seal.ts and session-refresh.ts).
 */
export type StoredSession = { id: string; record: SessionRecord; envelope: SessionEnvelope; resealDue: boolean };

/** Last-seen times are written at most this often per session: a request in between costs one read, no write. */
const TOUCH_INTERVAL_MS = 60_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Starts a session for a completed sign-in; returns the handle that goes into the session cookie. `times`
 * defaults to now (tools and tests pass older ones).
 */
export async function createSession(record: SessionRecord, times?: Pick<SessionEnvelope, "createdAt" | "lastSeenAt">): Promise<string> {
  const handle = newSessionHandle();
  const id = storeName("session", handle);
  const now = Date.now();
  const { createdAt, lastSeenAt } = times ?? { createdAt: now, lastSeenAt: now };
  await getSessionStore().put(id, {
    sealed: sealRecord(id, record),
    subject: storeName("subject", record.subject),
    ...(record.oidcSid ? { oidcSid: storeName("oidc-sid", record.oidcSid) } : {}),
    createdAt,
    lastSeenAt,
    expiresAt: sessionExpiresAt(createdAt, lastSeenAt, getConfig().sessions),
  });
  return handle;
}

/**
 * Seals `record` and writes it over session `id`'s, only if the session still exists and, with `lockOwner`,
 * only while that owner holds its refresh lock (SessionStore.update): a sign-out between the read and this write
 * is never undone. Throws SessionStoreUnavailableError.
 */
export function saveSession(id: string, record: SessionRecord, lockOwner?: string): Promise<UpdateOutcome> {
  return getSessionStore().update(
    id,
    { sealed: sealRecord(id, record), ...(record.oidcSid ? { oidcSid: storeName("oidc-sid", record.oidcSid) } : {}) },
    lockOwner,
  );
}

/**
 * Saves tokens the service has just issued (saveSession). They must not be lost, since the refresh token they
 * replace is spent: when the store cannot take them, this process keeps them (unsaved-tokens.ts) and the answer
 * is `written` as far as this process's requests can tell.
 */
export async function saveIssuedTokens(session: StoredSession, record: SessionRecord, lockOwner: string): Promise<UpdateOutcome> {
  dropUnsavedTokens(session.id);
  try {
    return await saveSession(session.id, record, lockOwner);
  } catch (error) {
    if (!isSessionStoreUnavailable(error)) throw error;
    getLogger().warn({ msg: `session store unavailable; refreshed tokens kept in this process until it returns: ${message(error)}` });
    // Unfenced: the refresh lock expires during an outage; whoever holds it next cannot redeem the spent token.
    keepUnsavedTokens(session.id, record, session.envelope, () => saveSession(session.id, record));
    return "written";
  }
}

/** The session a store id names, or null when it ended. Throws SessionStoreUnavailableError. */
export async function readSessionById(id: string): Promise<StoredSession | null> {
  const kept = unsavedSession(id);
  if (kept) return { id, ...kept, resealDue: false };
  const envelope = await getSessionStore().get(id);
  if (!envelope) return null;
  const opened = openRecord(id, envelope.sealed);
  return opened ? { id, envelope, ...opened } : null;
}

/**
 * The session behind a cookie's handle, or null when it ended (signed out, expired, ended from another device
 * or by the service). Counts as activity: moves the idle timeout, at most once a minute.
 */
export async function readSession(handle: string): Promise<StoredSession | null> {
  const session = await readSessionById(storeName("session", handle));
  if (!session) return null;
  const now = Date.now();
  // Tokens kept in this process (the store was unreachable) have no stored times to move until the store takes them.
  if (now - session.envelope.lastSeenAt >= TOUCH_INTERVAL_MS && !unsavedSession(session.id)) {
    const expiresAt = sessionExpiresAt(session.envelope.createdAt, now, getConfig().sessions);
    // Not awaited: the request needs the session, not the new last-seen time (a write, fsync'd on the file store).
    // A touch that fails leaves the old time; the next request tries again.
    getSessionStore()
      .touch(session.id, now, expiresAt)
      .catch((error: unknown) => getLogger().warn({ msg: `session last-seen time not written: ${message(error)}` }));
    session.envelope = { ...session.envelope, lastSeenAt: now, expiresAt };
  }
  return session;
}

/** Every live session of a subject (the service's `sub`). */
export async function sessionsOfSubject(subject: string): Promise<StoredSession[]> {
  const ids = await getSessionStore().idsForSubject(storeName("subject", subject));
  const found = await Promise.all(ids.map(readSessionById));
  return found.filter((s): s is StoredSession => s !== null && s.record.subject === subject);
}

/** Every live session started under the service's session `oidcSid` (back-channel logout). */
export async function sessionsOfOidcSid(oidcSid: string): Promise<StoredSession[]> {
  const ids = await getSessionStore().idsForOidcSid(storeName("oidc-sid", oidcSid));
  const found = await Promise.all(ids.map(readSessionById));
  return found.filter((s): s is StoredSession => s !== null && s.record.oidcSid === oidcSid);
}

/**
 * Ends a session in the store, and forgets tokens this process kept for it, so none is written back. A refresh
 * in flight meanwhile finds it gone when it writes (saveSession) and leaves it ended. Resolves the record as it
 * was when removed (null when it was gone or cannot be opened): a refresh that wrote after the caller read the
 * session has its new refresh token there.
 */
export async function deleteSession(id: string): Promise<SessionRecord | null> {
  const kept = unsavedSession(id);
  dropUnsavedTokens(id);
  const removed = await getSessionStore().delete(id);
  if (kept) return kept.record;
  return removed ? (openRecord(id, removed.sealed)?.record ?? null) : null;
}
