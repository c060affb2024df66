import "server-only";
import type { LimitName } from "@/lib/rate-limit/policies";
import { appRouteOf } from "@/lib/routes/app-routes";

/**
 * A router prefetch: Next's client sends both headers, and for the app's dynamic pages (none has a loading.tsx) the
 * answer is the route tree alone, no layout or page rendered, so nothing is read. A request with only one of them is
 * an ordinary request, whatever Next would make of it.
 */
export function isRouterPrefetch(headers: Headers): boolean {
  return headers.get("rsc") === "1" && headers.get("next-router-prefetch") === "1";
}

/**
 * The budget proxy.ts spends for a request path, whatever the method (a HEAD renders the whole page too), or
 * undefined where a route handler spends its own (or, on the allowlist, none):
 * - a page's budget (lib/routes/app-routes.ts), unless the request is a router prefetch;
 * - "other-pages" for a path that reaches no page or route (Next renders its 404 page, the header's read included);
 * - an operator route's budget, before the operator check (`operatorOnly`).
 */
export function proxyBudgetOf(pathname: string, headers: Headers): { name: LimitName; operatorOnly: boolean } | undefined {
  const route = appRouteOf(pathname);
  if (route?.kind === "operator-route") return { name: route.budget, operatorOnly: true };
  if (isRouterPrefetch(headers)) return undefined;
  if (!route) return { name: "other-pages", operatorOnly: false };
  return route.kind === "page" ? { name: route.budget, operatorOnly: false } : undefined;
}

/**
 * Where proxy.ts sends anyone but an operator who asks for an operator route: a path that reaches no page or route, so
 * the answer is exactly Next's for any unknown path (status, content type, page), and says nothing of the route.
 */
export const UNKNOWN_PATH = "/api/operator/not-a-route";
