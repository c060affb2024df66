import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Faults } from "./faults";
import type { Stats } from "./stats";
import { sendError } from "./http-utils";

export interface JwksEndpointDeps {
  faults: Faults;
  stats: Stats;
  hanging: Set<ServerResponse>;
  forward: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/**
 * Sits in front of oidc-provider's `/connect/jwks`: counts every fetch (resource servers and clients reload the
 * key set on refresh and on an unknown `kid`) and applies JWKS faults: an error status, a delay, or no answer.
 */
export async function handleJwksRequest(deps: JwksEndpointDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  deps.stats.recordJwksRequest();
  const fault = deps.faults.takeJwks();
  if (fault?.status !== undefined) {
    req.resume();
    sendError(res, fault.status, fault.status >= 500 ? "server_error" : "invalid_request", `sandbox fault: status ${fault.status}`);
    return;
  }
  if (fault?.hang) {
    deps.hanging.add(res);
    res.once("close", () => deps.hanging.delete(res));
    req.resume();
    return;
  }
  if (fault?.delayMs !== undefined) await sleep(fault.delayMs);
  await deps.forward(req, res);
}
