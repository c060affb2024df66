import type { LimitName } from "@/lib/rate-limit/policies";

/** The HTTP methods a route handler exports. */
export type RouteMethod = "GET" | "POST" | "DELETE";

/**
 * One page or route handler under app/, by its path there (`[itemId]` a dynamic segment, `[...nextauth]` a catch-all).
 * - A page spends `budget` in proxy.ts on every request, whatever its method (HEAD renders the whole page too).
 * - A route handler spends its budget per method, in the handler itself.
 * - An operator route spends `budget` in proxy.ts on every request, before the operator check, so that anyone else pays
 *   for that check too; anyone but an operator then gets exactly Next's answer for a path that does not exist.
 * - `exempt` says why a route spends none: it is on the short allowlist below and nowhere else.
 */
export type AppRoute =
  | { path: string; kind: "page"; budget: LimitName }
  | { path: string; kind: "route"; budgets: Partial<Record<RouteMethod, LimitName>> }
  | { path: string; kind: "operator-route"; budget: LimitName }
  | { path: string; kind: "route"; exempt: string };

/**
 * Every page and route handler of the app, each with the budget it spends: one list, from which proxy.ts spends the
 * pages' budgets and the metrics label requests. tests/unit/route-budgets.test.ts fails for a page.tsx or route.ts
 * missing from it, and spends each budget for real. A new page or route is added here.
 */
export const APP_ROUTES: readonly AppRoute[] = [
  { path: "/", kind: "page", budget: "other-pages" },
  { path: "/account", kind: "page", budget: "account" },
  { path: "/account/erased", kind: "page", budget: "other-pages" },
  { path: "/auth/error", kind: "page", budget: "other-pages" },
  { path: "/documents", kind: "page", budget: "documents-list" },
  { path: "/documents/[itemId]", kind: "page", budget: "document-page" },
  { path: "/operator", kind: "page", budget: "operator-pages" },
  { path: "/operator/access", kind: "page", budget: "operator-pages" },
  { path: "/operator/search", kind: "page", budget: "operator-pages" },
  { path: "/operator/stuck", kind: "page", budget: "operator-pages" },
  { path: "/operator/users/[userKey]", kind: "page", budget: "operator-pages" },
  { path: "/operator/users/[userKey]/documents/[itemId]", kind: "page", budget: "operator-pages" },

  { path: "/api/account", kind: "route", budgets: { GET: "account" } },
  { path: "/api/account/erasure", kind: "route", budgets: { POST: "records-erase" } },
  { path: "/api/documents", kind: "route", budgets: { GET: "documents-list", POST: "documents-create" } },
  { path: "/api/documents/export", kind: "route", budgets: { GET: "documents-export" } },
  { path: "/api/documents/import", kind: "route", budgets: { POST: "documents-import" } },
  { path: "/api/documents/[itemId]", kind: "route", budgets: { DELETE: "documents-remove" } },
  { path: "/api/documents/[itemId]/events", kind: "route", budgets: { POST: "document-events" } },
  { path: "/api/sessions", kind: "route", budgets: { GET: "sessions", DELETE: "sessions" } },
  { path: "/api/sessions/[id]", kind: "route", budgets: { DELETE: "sessions" } },
  { path: "/api/operator/export", kind: "operator-route", budget: "operator-export" },
  { path: "/api/operator/access-log/export", kind: "operator-route", budget: "operator-export" },
  { path: "/api/operator/users/[userKey]/erasure", kind: "operator-route", budget: "operator-erase" },
  // Per client address: nobody is signed in yet (lib/auth/start-sign-in.ts).
  { path: "/auth/restart", kind: "route", budgets: { GET: "sign-in" } },

  // The allowlist. Auth.js's own routes: its sign-in start spends "sign-in" like the app's (app/api/auth/[...nextauth]).
  { path: "/api/auth/[...nextauth]", kind: "route", exempt: "Auth.js's own routes (sign-in, callback, sign-out, session)" },
  { path: "/api/auth/backchannel-logout", kind: "route", exempt: "the service's own callback: a signed logout token, verified before anything is read" },
  { path: "/api/health", kind: "route", exempt: "health: liveness, reads nothing" },
  { path: "/api/health/ready", kind: "route", exempt: "health: readiness, one cached probe round per 5 s whatever the traffic" },
  { path: "/favicon.ico", kind: "route", exempt: "static: a redirect to the brand's icon" },
  { path: "/language", kind: "route", exempt: "static: a cookie and a redirect back, reading nothing" },
];

/**
 * Where proxy.ts sends anyone but an operator who asks for an operator route: a path that reaches no page or route, so
 * the answer is Next's own for an unknown path (404, its page, in the same content type), and says nothing of the route.
 */
export const UNKNOWN_PATH = "/api/operator/not-a-route";

/** `/documents/[itemId]` as the metrics label it is known by: `/documents/:itemId`. */
export function routeLabelOf(path: string): string {
  return path.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, ":$1");
}

const compiled = APP_ROUTES.map((route) => ({
  route,
  dynamic: route.path.includes("["),
  pattern: new RegExp(
    `^${route.path
      .split("/")
      .map((segment) => (segment.startsWith("[...") ? ".+" : segment.startsWith("[") ? "[^/]+" : segment.replace(/[.*+?^${}()|\\]/g, "\\$&")))
      .join("/")}$`,
  ),
}));

/**
 * The page or route handler a request path reaches, or undefined (Next then answers its 404 page). A static path
 * wins over a dynamic one, as in Next's own routing (`/api/documents/export` is not `/api/documents/[itemId]`).
 */
export function appRouteOf(pathname: string): AppRoute | undefined {
  const matches = compiled.filter(({ pattern }) => pattern.test(pathname));
  return (matches.find((m) => !m.dynamic) ?? matches[0])?.route;
}
