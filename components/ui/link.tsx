import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * next/link that never prefetches. Every page here is rendered per request (its CSP nonce, the session), and Next.js
 * prefetches a dynamic page without loading.js only down to its route tree: nothing that makes the click faster. It
 * still cost each page load two requests per visible link (each through proxy.ts and the session store) and their
 * handling on the browser's main thread, 10–45 ms of CPU on a signed-in page (docs/page-weight.md). A click still
 * navigates client-side.
 */
export function Link(props: Omit<ComponentProps<typeof NextLink>, "prefetch">) {
  return <NextLink {...props} prefetch={false} />;
}
