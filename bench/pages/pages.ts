/** What a measured page's address is made from: the documents the bench (or the e2e) created before measuring. */
export interface PagePathParams {
  /** A document alice created: its page is `/documents/<itemId>`. */
  itemId: string;
  /** Alice's email, which the operator's search is measured with. */
  aliceEmail: string;
  /** The operator's own document as the operator pages address it: `/operator/users/<userKey>/documents/<itemId>`. */
  operatorDocumentPath: string;
}

/**
 * The pages whose weight and speed are held to a budget (docs/page-weight.md): `bench:pages` measures each against
 * the bare Next.js page, the page-weight e2e checks their JavaScript bytes. `route` is the build's route (for its
 * chunks), `path` the URL visited, `as` who is signed in: nobody, alice, or the sandbox's operator (oscar, named in
 * OPERATOR_EMAILS). A new page is measured by both once it is listed here.
 */
export const MEASURED_PAGES = [
  { route: "/", as: null, path: () => "/" },
  { route: "/account", as: "alice", path: () => "/account" },
  { route: "/documents", as: "alice", path: () => "/documents" },
  { route: "/documents/[itemId]", as: "alice", path: (p: PagePathParams) => `/documents/${p.itemId}` },
  { route: "/auth/error", as: null, path: () => "/auth/error?error=AccessDenied" },
  { route: "/operator", as: "operator", path: () => "/operator" },
  { route: "/operator/stuck", as: "operator", path: () => "/operator/stuck" },
  { route: "/operator/search", as: "operator", path: (p: PagePathParams) => `/operator/search?q=${encodeURIComponent(p.aliceEmail)}` },
  { route: "/operator/access", as: "operator", path: () => "/operator/access" },
  { route: "/operator/users/[userKey]", as: "operator", path: (p: PagePathParams) => p.operatorDocumentPath.replace(/\/documents\/[^/]+$/, "") },
  { route: "/operator/users/[userKey]/documents/[itemId]", as: "operator", path: (p: PagePathParams) => p.operatorDocumentPath },
] as const satisfies readonly { route: string; as: "alice" | "operator" | null; path: (p: PagePathParams) => string }[];

/**
 * JavaScript the bare page (bench/pages/bare/) loads, gzip KiB as transferred (response headers included), as
 * `npm run bench:pages` measures it; the bench says when the live figure no longer matches (after a Next.js or React
 * upgrade). Bytes do not depend on the machine, so the e2e can hold the pages to it without building the bare page.
 */
export const BARE_JS_KIB = 134.5;

/** What a page may load beyond the bare page's JavaScript, KiB (issue #37). */
export const JS_OVER_BARE_KIB = 16;
