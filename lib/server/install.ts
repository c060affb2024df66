import "server-only";
import { installGracefulShutdown } from "@/lib/server/graceful-shutdown";
import { installHttpHooks, knownServers } from "@/lib/server/http-hooks";

/** Bound on draining in-flight requests at shutdown; below the 30 s most process managers wait before SIGKILL. */
const DRAIN_MS = 25_000;

/** Request ids, access log lines and bounded graceful shutdown for the production server. */
export function installServerHooks(): void {
  installHttpHooks({ trustProxy: process.env.TRUST_PROXY === "true" });
  // `next dev` manages its own worker processes and restarts; only the production server drains this way.
  if (process.env.NODE_ENV === "production") installGracefulShutdown(knownServers, Number(process.env.SHUTDOWN_DRAIN_MS) || DRAIN_MS);
}
