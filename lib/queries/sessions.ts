"use client";
import { fetchJson } from "@/lib/api-client";
import type { SessionSummary } from "@/lib/queries/session-summary";

/**
 * The signed-in user's sessions and the two ways to end them, as plain calls to our route handlers: the list
 * arrives with the page (lib/ssr/sessions-for-page.ts) and changes only when the user acts on it.
 */
export async function fetchSessions(): Promise<SessionSummary[]> {
  return (await fetchJson<{ sessions: SessionSummary[] }>("/api/sessions")).sessions;
}

/** Ends one session; `endedCurrent` when it was this browser's (the browser is then signed out). */
export function endSession(id: string): Promise<{ endedCurrent: boolean }> {
  return fetchJson(`/api/sessions/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Sign out everywhere: every session of the user, this one included. */
export function endAllSessions(): Promise<{ ended: number }> {
  return fetchJson("/api/sessions", { method: "DELETE" });
}
