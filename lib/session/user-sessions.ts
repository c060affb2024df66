import "server-only";
import { sessionNotFoundError } from "@/lib/errors";
import type { SessionSummary } from "@/lib/queries/session-summary";
import { endSessions } from "@/lib/session/end-sessions";
import { sessionsOfSubject, type StoredSession } from "@/lib/session/sessions";
import type { SessionRecord } from "@/lib/session/session-record";

/** The session a request came with: its store id and record (requireSession, readPageSession). */
export type CurrentSession = { id: string; record: SessionRecord };

function summarise(session: StoredSession, currentId: string): SessionSummary {
  return {
    id: session.id,
    browser: session.record.device.browser,
    os: session.record.device.os,
    signedInAt: new Date(session.envelope.createdAt).toISOString(),
    lastSeenAt: new Date(session.envelope.lastSeenAt).toISOString(),
    current: session.id === currentId,
  };
}

/** The user's live sessions: this device first, then the most recently active. */
export async function listUserSessions(current: CurrentSession): Promise<SessionSummary[]> {
  const sessions = await sessionsOfSubject(current.record.subject);
  return sessions
    .map((s) => summarise(s, current.id))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
}

/**
 * Ends one of the user's sessions, found among the user's own only: any other id, ended or another user's,
 * is SESSION_NOT_FOUND. Its refresh token is revoked at the service (endSessions).
 */
export async function endUserSession(current: CurrentSession, id: string): Promise<{ endedCurrent: boolean }> {
  const target = (await sessionsOfSubject(current.record.subject)).find((s) => s.id === id);
  if (!target) throw sessionNotFoundError();
  await endSessions([target], id === current.id ? "signed out from the list of devices" : "ended from another device");
  return { endedCurrent: id === current.id };
}

/** Ends every session of the user, this one included ("Sign out everywhere"). */
export async function endAllUserSessions(current: CurrentSession): Promise<{ ended: number }> {
  const { ended } = await endSessions(await sessionsOfSubject(current.record.subject), "signed out everywhere");
  return { ended };
}
