import "server-only";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import { currentRequestId } from "@/lib/logging/request-context";

// On globalThis: proxy.ts, route handlers and pages get separate module instances, and one outage is one log line.
const REJECTED_KEY = Symbol.for("esign.clientRejectedByTokenEndpoint");
type GlobalWithFlag = typeof globalThis & { [REJECTED_KEY]?: boolean };

/**
 * Logs, once per outage, that the token endpoint refused the app's own client credentials: every user's refresh
 * fails until the configuration is fixed, and nobody is signed out meanwhile, so this line is how an operator
 * finds out.
 */
export function reportClientRejected(detail: string): void {
  const g = globalThis as GlobalWithFlag;
  if (g[REJECTED_KEY]) return;
  g[REJECTED_KEY] = true;
  const { clientId, tokenAuthMethod } = getConfig();
  getLogger().error({
    msg:
      `the token endpoint refused this app's client (${detail}): no session can be refreshed until the configuration is fixed. ` +
      `Check ESIGN_CLIENT_SECRET (and ESIGN_CLIENT_ID=${clientId}, ESIGN_TOKEN_AUTH_METHOD=${tokenAuthMethod}) against the client registered with the service. ` +
      `Sessions and their refresh tokens are kept: users are signed in again once it is fixed, without signing in.`,
    requestId: currentRequestId(),
    code: "CLIENT_REJECTED",
  });
}

/** Ends the outage reportClientRejected logged: the token endpoint accepted the client again. */
export function clearClientRejected(): void {
  const g = globalThis as GlobalWithFlag;
  if (!g[REJECTED_KEY]) return;
  g[REJECTED_KEY] = false;
  getLogger().info({ msg: "the token endpoint accepts this app's client again: refreshes resume", requestId: currentRequestId() });
}
