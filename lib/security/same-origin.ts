import "server-only";
import type { NextRequest } from "next/server";
import { appOrigin } from "@/lib/app-origin";
import { AppError } from "@/lib/errors";

/**
 * Whether a GET navigation came from a page of this app: Sec-Fetch-Site says so, or, from a browser
 * that does not send it, Origin or Referer names the app's origin. A link on another site, a bookmark
 * or a typed URL is not one.
 */
export function isSameOriginNavigation(req: NextRequest): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  const from = req.headers.get("origin") ?? req.headers.get("referer");
  return from !== null && URL.canParse(from) && new URL(from).origin === appOrigin(req);
}

/**
 * Refuses a state-changing request sent by another site (CSRF). Browsers send Sec-Fetch-Site and
 * Origin on such requests; a request with neither did not come from a browser and carries no ambient
 * cookie risk.
 */
export function assertSameOrigin(req: NextRequest): void {
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  const crossSite = (site !== null && site !== "same-origin" && site !== "none") || (origin !== null && origin !== appOrigin(req));
  if (crossSite) {
    throw new AppError("CROSS_SITE_REQUEST", 403, "This request came from another site and was refused.");
  }
}
