import "server-only";
import { createHash } from "node:crypto";

/**
 * The loop guard of the automatic sign-in restart, kept per flow rather than per browser.
 *
 * The restart cookie lists short keys of the flows (by their `state`) that may not be restarted: a
 * flow whose callback already led to a restart, and the flow that restart started. So each flow gets
 * at most one automatic restart, and a restarted flow that fails again ends on the message. A
 * per-browser flag could not tell a second tab's first failure from the first tab's second one, and
 * sent the second tab to the message while the first tab's restart was under way.
 *
 * The list is bounded: once it holds `MAX_RESTARTS` restarts' worth of keys, nothing restarts until a
 * sign-in succeeds (which clears the cookie) or the cookie expires, whatever the number of tabs.
 */
export const MAX_RESTARTS = 3;
const KEYS_PER_RESTART = 2;
const KEY = /^[0-9a-f]{16}$/;

/** A short, non-secret key for a flow: the state itself is Auth.js's encrypted value, far too long for a list. */
export function flowKey(state: string | null): string {
  return createHash("sha256")
    .update(state ?? "")
    .digest("hex")
    .slice(0, 16);
}

/** The keys in the restart cookie; anything else in it (an old `1`, a tampered value) is ignored. */
export function parseSpentFlows(cookie: string | undefined): string[] {
  return (cookie ?? "").split(".").filter((key) => KEY.test(key)).slice(-MAX_RESTARTS * KEYS_PER_RESTART);
}

export function formatSpentFlows(keys: string[]): string {
  return [...new Set(keys)].slice(-MAX_RESTARTS * KEYS_PER_RESTART).join(".");
}

/** Whether the flow with this state may still be restarted automatically. */
export function mayRestart(spent: string[], state: string | null): boolean {
  return !spent.includes(flowKey(state)) && spent.length < MAX_RESTARTS * KEYS_PER_RESTART;
}
