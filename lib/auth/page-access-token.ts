import "server-only";
import { cookies, headers } from "next/headers";
import { decodeSessionCookie, sessionCookieName } from "@/lib/auth/session-cookie";
import { isAccessTokenExpired } from "@/lib/auth/session-token";

/**
 * The access token of the session behind the page being rendered, for a Server Component to call the
 * service with during the render; null when there is no usable one (signed out, session marked expired,
 * or a refresh was deferred). proxy.ts has already refreshed a due token and put the new cookie on the
 * request, so this only reads. The token is used on the server and never handed to a client component.
 */
export async function readPageAccessToken(): Promise<string | null> {
  const [cookieStore, headerStore] = await Promise.all([cookies(), headers()]);
  const token = await decodeSessionCookie(cookieStore, sessionCookieName({ headers: headerStore }));
  if (!token?.accessToken || token.error || isAccessTokenExpired(token)) return null;
  return token.accessToken;
}
