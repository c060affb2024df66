import { NextRequest } from "next/server";

/**
 * A session cookie for `subject`, as the app would set it after a sign-in to `origin`: a stored session with a live
 * access token, sealed into the app's cookie. Imports the app's modules late, after the test has set the env.
 */
export async function signedInCookie(subject: string, origin: string): Promise<string> {
  const { createSession } = await import("@/lib/session/sessions");
  const { encodeSessionToken, sessionCookieName } = await import("@/lib/auth/session-cookie");
  const handle = await createSession({ subject, accessToken: `at-${subject}`, accessTokenExpiresAt: Math.floor(Date.now() / 1000) + 3600, device: { browser: "Chrome 131", os: "macOS 10.15" } });
  const req = new NextRequest(`${origin}/`);
  return `${sessionCookieName(req)}=${await encodeSessionToken(req, { sub: subject, sessionHandle: handle })}`;
}
