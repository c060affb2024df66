import "server-only";
import type http from "node:http";

/**
 * Headers Next's static file server (`send`) puts on every file that do nothing for its hashed chunks: they are
 * `immutable` for a year, so a browser never revalidates them (ETag, Last-Modified) and loads them whole
 * (Accept-Ranges). ~100 bytes a chunk, ~1 KiB on each page's first load, which Lighthouse counts as JavaScript.
 */
const UNUSED_ON_HASHED_FILES = new Set(["etag", "last-modified", "accept-ranges"]);

/** Keeps those headers off the response when the request is for one of Next's hashed static files. */
export function omitUnusedStaticHeaders(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (!req.url?.startsWith("/_next/static/")) return;
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => (UNUSED_ON_HASHED_FILES.has(name.toLowerCase()) ? res : setHeader(name, value));
}
