import "server-only";
import http from "node:http";
import { getLogger } from "@/lib/logging/logger";
import { resolveRequestId, runWithRequestId } from "@/lib/logging/request-context";
import { recordHttpRequest, routeLabel } from "@/lib/metrics/http-requests";
import { CLIENT_ADDRESS_HEADER, clientAddressOf, trustedProxyMatcher } from "@/lib/rate-limit/client-address";
import type { TrustedProxy } from "@/lib/rate-limit/rate-limit-config";
import { omitUnusedStaticHeaders } from "@/lib/server/static-asset-headers";
import { endRequestSpan, startRequestSpan } from "@/lib/tracing/spans";

const INSTALLED = Symbol.for("esign.httpHooksInstalled");
const INTERNAL = Symbol.for("esign.internalServer");

type HookedServer = http.Server & { [INTERNAL]?: boolean };

/** Leaves a server of our own (the metrics listener) out of the hooks: no request ids, access lines or draining. */
export function markInternalServer(server: http.Server): void {
  (server as HookedServer)[INTERNAL] = true;
}

/** The HTTP servers of this process, seen as they accept connections: what graceful shutdown closes. */
export const knownServers = new Set<http.Server>();

let inFlight = 0;
/** Requests those servers have received and not yet finished (or lost to a closed connection): what a shutdown waits for. */
export const requestsInFlight = () => inFlight;

/**
 * Wraps every request Next's HTTP server receives, before Next sees it:
 * - gives it a request id (the trusted proxy's X-Request-Id, else a new one), written into the request
 *   headers Next passes on and echoed in the response's X-Request-Id;
 * - writes the client's address (the TCP peer, or what a trusted proxy forwarded) into the request headers, for
 *   the per-address budgets: only here is the socket at hand (lib/rate-limit/client-address.ts);
 * - runs all of Next's work for it inside that id's async context, so logs and calls to the service carry it;
 * - writes one access line, and records the request's metrics and trace span, when the response has finished;
 * - keeps validators and range headers off Next's hashed static files (static-asset-headers.ts).
 *
 * Next exposes no per-request hook for this (proxy.ts skips static files and Auth.js routes, and never sees the
 * final status), so it hooks the one place every request passes: the server's "request" event.
 */
export function installHttpHooks(options: { trustProxy: boolean; trustedProxies?: readonly TrustedProxy[] }): void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const originalEmit = proto.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  const logger = getLogger();
  const isTrustedProxy = trustedProxyMatcher(options.trustedProxies ?? []);
  proto.emit = function emit(this: HookedServer, event: string | symbol, ...args: unknown[]): boolean {
    if (this[INTERNAL]) return originalEmit.call(this, event, ...args);
    if (event === "connection") knownServers.add(this);
    if (event !== "request") return originalEmit.call(this, event, ...args);
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    const requestId = resolveRequestId(req.headers["x-request-id"], options.trustProxy);
    req.headers["x-request-id"] = requestId;
    res.setHeader("x-request-id", requestId);
    req.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(req.socket.remoteAddress, req.headers["x-forwarded-for"], isTrustedProxy);
    omitUnusedStaticHeaders(req, res);
    const started = process.hrtime.bigint();
    // The path only: query strings can carry codes, states and signatures.
    const path = (req.url ?? "").split("?")[0] ?? "";
    const span = startRequestSpan(req.method ?? "GET", routeLabel(path), path, requestId);
    inFlight += 1;
    res.once("close", () => {
      inFlight -= 1;
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const aborted = !res.writableFinished;
      logger.info({
        msg: "request",
        requestId,
        method: req.method,
        route: path,
        status: res.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
        ...(aborted ? { aborted: true } : {}),
      });
      recordHttpRequest(req.method, path, res.statusCode, durationMs / 1000);
      endRequestSpan(span, res.statusCode, aborted);
    });
    return runWithRequestId(requestId, () => originalEmit.call(this, event, ...args), span);
  };
}
