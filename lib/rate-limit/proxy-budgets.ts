import "server-only";
import type { LimitName } from "@/lib/rate-limit/policies";
import { appRouteOf } from "@/lib/routes/app-routes";

/**
 * The budget proxy.ts spends for a request path, whatever the method (a HEAD renders the whole page too), or
 * undefined where a route handler spends its own (or, on the allowlist, none):
 * - a page's budget (lib/routes/app-routes.ts);
 * - "other-pages" for a path that reaches no page or route (Next renders its 404 page, the header's read included);
 * - an operator route's budget, before the operator check (`operatorOnly`).
 *
 * No request is exempt as a router prefetch: Next strips the router's headers (`RSC`, `Next-Router-Prefetch` and the
 * rest of its FLIGHT_HEADERS) from the request the proxy sees, so here a prefetch cannot be told from a page request
 * (e2e/deploy/rate-limits.spec.ts). The app's links never prefetch (components/ui/link.tsx), so nothing is lost.
 */
export function proxyBudgetOf(pathname: string): { name: LimitName; operatorOnly: boolean } | undefined {
  const route = appRouteOf(pathname);
  if (route?.kind === "operator-route") return { name: route.budget, operatorOnly: true };
  if (!route) return { name: "other-pages", operatorOnly: false };
  return route.kind === "page" ? { name: route.budget, operatorOnly: false } : undefined;
}
