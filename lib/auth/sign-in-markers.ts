import "server-only";

/**
 * Two small HttpOnly cookies that steer the next sign-in; neither holds anything secret.
 *
 * - `RESTARTED_COOKIE`: short keys of the sign-in flows that were restarted automatically after a
 *   failed callback check, or started by such a restart: the loop guard's list (restart-guard.ts).
 *   Cleared by a successful sign-in; otherwise it expires 10 minutes after the last restart.
 * - `FRESH_LOGIN_COOKIE`: the person signed out on purpose. Until the next successful sign-in, the
 *   service is asked for a fresh login (`prompt=login`) so that the next person is not waved through
 *   on the previous person's session at the service.
 */
export const RESTARTED_COOKIE = "esign.sign-in-restarted";
export const FRESH_LOGIN_COOKIE = "esign.fresh-login";

const RESTARTED_MAX_AGE_SECONDS = 10 * 60;
const FRESH_LOGIN_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function markerCookieOptions(name: typeof RESTARTED_COOKIE | typeof FRESH_LOGIN_COOKIE, secure: boolean) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    secure,
    maxAge: name === RESTARTED_COOKIE ? RESTARTED_MAX_AGE_SECONDS : FRESH_LOGIN_MAX_AGE_SECONDS,
  };
}
