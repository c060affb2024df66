import "server-only";
import { readPageSession } from "@/lib/auth/page-access-token";
import type { SessionSummary } from "@/lib/queries/session-summary";
import { isSessionStoreUnavailable } from "@/lib/session/session-store";
import { listUserSessions } from "@/lib/session/user-sessions";

/**
 * The user's sessions read during the page render, for the first paint; null when there is no live session or
 * the store cannot answer (the panel then asks GET /api/sessions).
 */
export async function fetchSessionsForPage(): Promise<SessionSummary[] | null> {
  const state = await readPageSession();
  if (state?.status !== "active") return null;
  try {
    return await listUserSessions(state);
  } catch (error) {
    if (isSessionStoreUnavailable(error)) return null;
    throw error;
  }
}
