/**
 * Where to send the user after sign-in or sign-out: the requested place if it is on this app's origin,
 * otherwise the app's start page. Keeps `callbackUrl` / `redirectTo` from becoming an open redirect.
 */
export function safeRedirect(url: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  let target: URL;
  try {
    target = new URL(url, base);
  } catch {
    return base.origin;
  }
  return target.origin === base.origin ? target.href : base.origin;
}
