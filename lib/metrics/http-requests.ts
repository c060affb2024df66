import "server-only";
import { counter, histogram } from "@/lib/metrics/registry";
import { appRouteOf, routeLabelOf } from "@/lib/routes/app-routes";

const AUTH_ACTIONS = new Set(["signin", "callback", "signout", "session", "csrf", "providers", "error"]);
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The route label for a request path (query already removed): the app's page or route it reaches (lib/routes/app-routes.ts,
 * an id in the path never in the label: `/documents/:itemId`), Auth.js's action, Next's own files, the brand's public
 * files, or `other` for anything else (probes for /wp-admin, typos), so labels stay bounded.
 */
export function routeLabel(pathname: string): string {
  if (pathname.startsWith("/_next/static/")) return "/_next/static";
  if (pathname.startsWith("/_next/")) return "/_next";
  if (pathname.startsWith("/brand/")) return "/brand";
  const route = appRouteOf(pathname);
  if (route?.path === "/api/auth/[...nextauth]") {
    const action = /^\/api\/auth\/([^/]+)/.exec(pathname)?.[1];
    return action && AUTH_ACTIONS.has(action) ? `/api/auth/${action}` : "/api/auth/other";
  }
  return route ? routeLabelOf(route.path) : "other";
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
