/**
 * The error codes Auth.js (and our sign-in routes) put in `?error=` after a failed sign-in that have their own
 * message; the text of each is in the catalogs under `authErrors.<code>` (title and body).
 */
const KNOWN_CODES = [
  "AccessDenied",
  "ServiceUnavailable",
  "OAuthSignin",
  "OAuthCallbackError",
  "CallbackRouteError",
  "LinkExpired",
  "Configuration",
  "TooManySignIns",
] as const;

export type AuthErrorKey = (typeof KNOWN_CODES)[number] | "Default";

/** The catalog entry for a `?error=` code: its own, or the general "Sign-in failed" for any other. */
export function authErrorKey(code: string | undefined): AuthErrorKey {
  return (KNOWN_CODES as readonly string[]).includes(code ?? "") ? (code as AuthErrorKey) : "Default";
}
