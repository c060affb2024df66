import "server-only";
import http from "node:http";
import { getLogger } from "@/lib/logging/logger";
import { getMetricsRegistry } from "@/lib/metrics/registry";
import { markInternalServer } from "@/lib/server/http-hooks";

/**
 * Serves GET /metrics (Prometheus text format) on its own listener, apart from the app's port: the public site
 * proxies the app's port as a whole, so nothing on it is private, while this listener is bound to loopback (or
 * a private address) and is never behind the public site. Scrapes also stay out of the access log and the
 * request metrics, and keep answering while the app drains.
 */
export function startMetricsServer(port: number, hostname: string): http.Server {
  const logger = getLogger();
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: metrics are at /metrics\n");
      return;
    }
    const registry = getMetricsRegistry();
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" }).end(text),
      (error: unknown) => {
        logger.error({ msg: "metrics: collecting failed", err: error });
        res.writeHead(500, { "content-type": "text/plain" }).end("collecting metrics failed\n");
      },
    );
  });
  markInternalServer(server);
  // A taken port must not stop the app from serving: the metrics are missing (and the scrape target down) instead.
  server.on("error", (error) => logger.error({ msg: "metrics: listener failed, no metrics from this instance", port, hostname, err: error }));
  server.listen(port, hostname, () => logger.info({ msg: "metrics: serving /metrics", port, hostname }));
  // The app's own listener decides when the process exits.
  server.unref();
  return server;
}
