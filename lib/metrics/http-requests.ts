import "server-only";
import { counter, histogram } from "@/lib/metrics/registry";

/** The app's routes by path; anything else (probes for /wp-admin, typos) is one `other` label, so labels stay bounded. */
const KNOWN_ROUTES = new Set([
  "/",
  "/account",
  "/account/erased",
  "/documents",
  "/auth/error",
  "/auth/restart",
  "/api/account",
  "/api/account/erasure",
  "/api/documents",
  "/api/documents/export",
  "/api/documents/import",
  "/api/health",
  "/api/health/ready",
  "/api/sessions",
  "/api/auth/backchannel-logout",
  "/favicon.ico",
  "/brand/mark.svg",
]);
/** Routes with an id in their path: one label each, never the id itself. */
const ROUTE_FAMILIES: [RegExp, string][] = [
  [/^\/api\/sessions\/[^/]+$/, "/api/sessions/[id]"],
  [/^\/api\/operator\/users\/[^/]+\/erasure$/, "/api/operator/users/:userKey/erasure"],
  [/^\/api\/documents\/[^/]+\/events$/, "/api/documents/:itemId/events"],
  [/^\/api\/documents\/[^/]+$/, "/api/documents/:itemId"],
  [/^\/documents\/[^/]+$/, "/documents/:itemId"],
];
const AUTH_ACTIONS = new Set(["signin", "callback", "signout", "session", "csrf", "providers", "error"]);
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The route label for a request path (query already removed): a known route, a family of routes, or `other`. */
export function routeLabel(pathname: string): string {
  if (KNOWN_ROUTES.has(pathname)) return pathname;
  if (pathname.startsWith("/_next/static/")) return "/_next/static";
  if (pathname.startsWith("/_next/")) return "/_next";
  const family = ROUTE_FAMILIES.find(([pattern]) => pattern.test(pathname));
  if (family) return family[1];
  const auth = /^\/api\/auth\/([^/]+)/.exec(pathname);
  if (auth) return AUTH_ACTIONS.has(auth[1]!) ? `/api/auth/${auth[1]}` : "/api/auth/other";
  return "other";
}

/** Records one finished HTTP request the app served. */
export function recordHttpRequest(method: string | undefined, pathname: string, status: number, seconds: number): void {
  const labels = { method: METHODS.has(method ?? "") ? method! : "other", route: routeLabel(pathname) };
  counter({
    name: "esign_http_requests_total",
    help: "HTTP requests served, by method, route and status",
    labelNames: ["method", "route", "status"] as const,
  }).inc({ ...labels, status: String(status) });
  histogram({
    name: "esign_http_request_duration_seconds",
    help: "HTTP request duration, by method and route",
    labelNames: ["method", "route"] as const,
  }).observe(labels, seconds);
}
