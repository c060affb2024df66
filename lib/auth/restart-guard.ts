import "server-only";
import { createHash } from "node:crypto";

/**
 * The loop guard of the automatic sign-in restart, kept per flow rather than per browser.
 *
 * The restart cookie lists the flows (short keys of their `state`) that the guard knows: `r` for a
 * flow whose failed callback led to a restart, `s` for a flow such a restart started. A per-browser
 * flag could not tell one tab's second failure from another tab's first, and sent the second tab to
 * the expired-link message while the first tab's restart was under way. With the list:
 *
 * - a flow is restarted at most once (`r`);
 * - the flow the latest restart started (`s`, last) owns this browser's check cookies as far as we
 *   know, so if its callback fails anyway, restarting cannot help: the expired-link message;
 * - any other flow lost its check cookies to a later start (another tab, or another tab's restart),
 *   so it may restart;
 * - at most `MAX_RESTARTS` restarts in all until a sign-in succeeds (which clears the cookie) or the
 *   cookie expires, whatever the number of tabs.
 */
export const MAX_RESTARTS = 3;
const ENTRY = /^[rs][0-9a-f]{16}$/;

type Entry = `r${string}` | `s${string}`;

/** A short, non-secret key for a flow: the state itself is Auth.js's encrypted value, far too long for a list. */
export function flowKey(state: string | null): string {
  return createHash("sha256")
    .update(state ?? "")
    .digest("hex")
    .slice(0, 16);
}

export const restartedEntry = (state: string | null): Entry => `r${flowKey(state)}`;
export const startedEntry = (state: string | null): Entry => `s${flowKey(state)}`;

/** The entries in the restart cookie; anything else in it (an old `1`, a tampered value) is ignored. */
export function parseRestartLog(cookie: string | undefined): Entry[] {
  return (cookie ?? "")
    .split(".")
    .filter((entry): entry is Entry => ENTRY.test(entry))
    .slice(-MAX_RESTARTS * 2);
}

export function formatRestartLog(entries: Entry[]): string {
  return entries.slice(-MAX_RESTARTS * 2).join(".");
}

/** Whether the flow with this state, whose callback failed its checks, may be restarted automatically. */
export function mayRestart(log: Entry[], state: string | null): boolean {
  const key = flowKey(state);
  if (log.filter((entry) => entry.startsWith("r")).length >= MAX_RESTARTS) return false;
  if (log.includes(`r${key}`)) return false;
  const latestStarted = log.findLast((entry) => entry.startsWith("s"));
  return latestStarted !== `s${key}`;
}
