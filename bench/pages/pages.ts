/**
 * The pages whose weight and speed are held to a budget (docs/page-weight.md): `bench:pages` measures each against
 * the bare Next.js page, the page-weight e2e checks their JavaScript bytes. `route` is the build's route (for its
 * chunks), `path` the URL visited. A new page is measured by both once it is listed here.
 */
export const MEASURED_PAGES = [
  { route: "/", signedIn: false, path: () => "/" },
  { route: "/account", signedIn: true, path: () => "/account" },
  { route: "/documents", signedIn: true, path: () => "/documents" },
  { route: "/documents/[itemId]", signedIn: true, path: (itemId: string) => `/documents/${itemId}` },
  { route: "/auth/error", signedIn: false, path: () => "/auth/error?error=AccessDenied" },
] as const;

/**
 * JavaScript the bare page (bench/pages/bare/) loads, gzip KiB as transferred (response headers included), as
 * `npm run bench:pages` measures it; the bench says when the live figure no longer matches (after a Next.js or React
 * upgrade). Bytes do not depend on the machine, so the e2e can hold the pages to it without building the bare page.
 */
export const BARE_JS_KIB = 134.5;

/** What a page may load beyond the bare page's JavaScript, KiB (issue #37). */
export const JS_OVER_BARE_KIB = 16;
