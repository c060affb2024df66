import "server-only";
import type { JWT } from "next-auth/jwt";
import type { SessionError } from "@/lib/session/session-record";

/**
 * Why the browser's session cannot call the service right now: the record's own error, or `Unavailable` while
 * the session store cannot be reached (nobody is signed out). Recomputed on every read, never trusted from the cookie.
 */
export type SessionTokenError = SessionError | "Unavailable";

/**
 * What the encrypted session cookie holds: a handle to the server-side session (lib/session/) and display fields.
 * No token: those live in the session store, so the cookie stays small whatever the service's tokens weigh.
 */
export type SessionToken = JWT & {
  /** 256 random bits naming the server-side session; absent in cookies from before server-side sessions. */
  sessionHandle?: string;
  error?: SessionTokenError;
};

/** How long the session cookie lives: the session's absolute lifetime bounds it (SESSION_MAX_AGE_HOURS). */
export function sessionCookieMaxAgeSeconds(maxAgeMs: number): number {
  return Math.ceil(maxAgeMs / 1000);
}
