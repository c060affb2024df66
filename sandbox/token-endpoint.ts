import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { RegisteredClient } from "./clients";
import type { AuthMethod } from "./config";
import type { Faults } from "./faults";
import type { Stats } from "./stats";
import { BodyTooLargeError, readBody, replayRequest, sendError } from "./http-utils";

// oidc-provider's own limit for form bodies is 56 KiB; anything larger is refused here with the same meaning.
const TOKEN_BODY_LIMIT = 56 * 1024;

const faultErrors: Record<number, [string, string]> = {
  400: ["invalid_grant", "grant request is invalid (sandbox fault)"],
  401: ["invalid_client", "client authentication failed (sandbox fault)"],
  503: ["temporarily_unavailable", "the service is temporarily unavailable (sandbox fault)"],
};

function faultError(status: number): [string, string] {
  return faultErrors[status] ?? (status >= 500
    ? ["server_error", "unexpected server error (sandbox fault)"]
    : ["invalid_request", "request rejected (sandbox fault)"]);
}

/** Which client the request names and how it authenticates, judged from the request alone. */
function presentedAuthentication(req: IncomingMessage, form: URLSearchParams): { clientId?: string; method: AuthMethod } {
  const basic = /^basic\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const id = decoded.split(":", 1)[0] ?? "";
    let clientId: string | undefined;
    try {
      clientId = decodeURIComponent(id.replace(/\+/g, " "));
    } catch {
      clientId = undefined;
    }
    return { clientId, method: "client_secret_basic" };
  }
  return {
    clientId: form.get("client_id") ?? undefined,
    method: form.has("client_secret") ? "client_secret_post" : "none",
  };
}

export interface TokenEndpointDeps {
  clients: RegisteredClient[];
  faults: Faults;
  stats: Stats;
  forward: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/**
 * Sits in front of oidc-provider's token endpoint: counts outcomes, applies token faults and enforces each
 * client's registered authentication method (the library accepts a secret in the body or a Basic header
 * whatever the client registered).
 */
export async function handleTokenRequest(deps: TokenEndpointDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body: Buffer;
  try {
    body = await readBody(req, TOKEN_BODY_LIMIT);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) {
      res.destroy();
      return;
    }
    sendError(res, 413, "invalid_request", "request body too large");
    deps.stats.recordToken(undefined, 413);
    return;
  }
  const form = new URLSearchParams(body.toString("utf8"));
  const grantType = form.get("grant_type") ?? undefined;
  res.once("finish", () => deps.stats.recordToken(grantType, res.statusCode));

  const fault = deps.faults.takeToken(grantType);
  if (fault?.status !== undefined) {
    const [error, description] = faultError(fault.status);
    sendError(res, fault.status, error, description);
    return;
  }
  if (fault?.delayMs !== undefined) await sleep(fault.delayMs);
  if (fault?.hold) await deps.faults.hold();

  const { clientId, method } = presentedAuthentication(req, form);
  const client = deps.clients.find((candidate) => candidate.clientId === clientId);
  if (client && client.authMethod !== method) {
    sendError(res, 401, "invalid_client", `client authentication failed: this client must use ${client.authMethod}`);
    return;
  }
  await deps.forward(replayRequest(req, body), res);
}
