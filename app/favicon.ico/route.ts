import { connection } from "next/server";
import { BRAND_ICON_FALLBACK } from "@/lib/brand/brand";
import { getConfig } from "@/lib/env";

/** A browser's tab may change with the brand at the next restart: a day is fresh enough. */
const ONE_DAY_SECONDS = 24 * 60 * 60;

/**
 * Browsers and tools ask for /favicon.ico whatever the page's `<link rel="icon">` says: send them to the same icon,
 * the brand's logo (BRAND_LOGO: a file in public/ or an https URL) or today's mark. Read at request time, like the
 * layout, so a built app takes the brand of the environment it starts in.
 */
export async function GET(): Promise<Response> {
  await connection();
  const { brand } = getConfig();
  return new Response(null, {
    status: 302,
    headers: { location: brand.logo?.src ?? BRAND_ICON_FALLBACK, "cache-control": `public, max-age=${ONE_DAY_SECONDS}` },
  });
}
