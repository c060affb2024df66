import "server-only";

/** What a route handler's request and next/headers' `headers()` both offer. */
export type RequestLike = { headers: Headers; url?: string };

/**
 * The app's public origin: the one answer used by every cookie, redirect and same-origin check.
 * AUTH_URL when set (production requires it, lib/env.ts). Without it (development, tests), the
 * request's own origin read the way Auth.js reads it under `trustHost` — X-Forwarded-Host and
 * X-Forwarded-Proto first, then Host and the request URL's scheme — so that our cookie names and
 * Secure flags always agree with the session cookie Auth.js writes.
 */
export function appOrigin(request: RequestLike, env: Record<string, string | undefined> = process.env): string {
  const configured = env.AUTH_URL?.trim();
  if (configured && URL.canParse(configured)) return new URL(configured).origin;
  const url = request.url && URL.canParse(request.url) ? new URL(request.url) : undefined;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? url?.host ?? "localhost";
  // The first proxy's value (a chain sends "https, http"); anything but http or https means the request's own scheme.
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]!.trim().toLowerCase();
  const protocol = forwarded === "http" || forwarded === "https" ? forwarded : (url?.protocol.replace(/:$/, "") ?? "http");
  const candidate = `${protocol}://${host}`;
  // A Host header that does not make an origin (a client can send anything) falls back to the request's own URL.
  return URL.canParse(candidate) ? new URL(candidate).origin : (url?.origin ?? "http://localhost");
}

/** Whether the app is served over https, so its cookies are `Secure` and `__Secure-` prefixed (Auth.js's rule). */
export function servesHttps(request: RequestLike): boolean {
  return appOrigin(request).startsWith("https:");
}
