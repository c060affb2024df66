import "server-only";
import { cookies, headers } from "next/headers";
import { decodeSessionCookie, sessionCookieName } from "@/lib/auth/session-cookie";
import { resolveSession, shouldRefresh, type SessionState } from "@/lib/session/current-session";
import { accessTokenState } from "@/lib/session/session-record";

/**
 * The server-side session behind the page or Server Action being run (null without a session cookie), read
 * through the cookie's handle; proxy.ts has already refreshed due tokens.
 */
export async function readPageSession(): Promise<SessionState | null> {
  const [cookieStore, headerStore] = await Promise.all([cookies(), headers()]);
  const token = await decodeSessionCookie(cookieStore, sessionCookieName({ headers: headerStore }));
  return token?.sessionHandle ? resolveSession(token.sessionHandle, shouldRefresh(headerStore)) : null;
}

/**
 * The access token of the session behind the page being rendered, for a Server Component to call the
 * service with during the render; null when there is no usable one (signed out, session ended or marked
 * expired, a refresh deferred, or the store unreachable). The token is used on the server and never handed to
 * a client component.
 */
export async function readPageAccessToken(): Promise<string | null> {
  const state = await readPageSession();
  if (state?.status !== "active") return null;
  const token = accessTokenState(state.record);
  return token.status === "usable" ? token.accessToken : null;
}
