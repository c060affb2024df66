import "server-only";
import type http from "node:http";
import { getLogger } from "@/lib/logging/logger";

/**
 * On SIGTERM (or SIGINT): stop accepting connections, let in-flight requests finish, close idle keep-alive
 * connections, and exit 0 — or exit 1 after `drainMs` if some request is still running.
 *
 * Next's own handler drains without a bound and exits 143, which process managers count as a failure;
 * it is removed here (the equivalent of NEXT_MANUAL_SIG_HANDLE, set after the fact).
 */
export function installGracefulShutdown(servers: Set<http.Server>, drainMs: number): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => shutDown(signal, servers, drainMs));
  }
}

function shutDown(signal: string, servers: Set<http.Server>, drainMs: number): void {
  const logger = getLogger();
  logger.info({ msg: "shutting down: no new connections, draining in-flight requests", signal, drainMs });
  const deadline = setTimeout(() => {
    logger.error({ msg: "drain deadline passed: exiting with requests still in flight", drainMs });
    process.exit(1);
  }, drainMs);
  deadline.unref();
  let open = servers.size;
  if (open === 0) process.exit(0);
  for (const server of servers) {
    server.close(() => {
      open -= 1;
      if (open > 0) return;
      logger.info({ msg: "drained: exiting" });
      process.exit(0);
    });
  }
  // A keep-alive connection with no request in flight would hold close() until its idle timeout; connections
  // busy now become idle once their response is sent, so sweep until all are gone.
  const sweep = () => {
    for (const server of servers) server.closeIdleConnections();
  };
  sweep();
  setInterval(sweep, 100).unref();
}
