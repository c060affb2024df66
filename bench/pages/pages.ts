/**
 * The pages whose weight and speed are held to a budget (docs/page-weight.md): `bench:pages` measures them with
 * Lighthouse, the page-weight e2e checks their JavaScript bytes. `route` is the build's route (for its chunks),
 * `path` the URL visited.
 */
export const MEASURED_PAGES = [
  { route: "/", signedIn: false, path: () => "/" },
  { route: "/account", signedIn: true, path: () => "/account" },
  { route: "/documents", signedIn: true, path: () => "/documents" },
  { route: "/documents/[itemId]", signedIn: true, path: (itemId: string) => `/documents/${itemId}` },
  { route: "/auth/error", signedIn: false, path: () => "/auth/error?error=AccessDenied" },
] as const;

/** JavaScript a page may load up front, gzip KiB (as transferred, response headers included). */
export const JS_BUDGET_KIB = 150;
