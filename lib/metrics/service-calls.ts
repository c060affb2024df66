import "server-only";
import { histogram } from "@/lib/metrics/registry";

/**
 * The calls the app makes to the service. `token` is the authorization-code exchange of the authorize callback,
 * `refresh` the refresh grant (both at /connect/token); `discovery` the discovery document and JWKS the callback
 * and id_token checks read; `revocation` the RFC 7009 revocation of a session's refresh token when the user
 * signs out (or ends sessions elsewhere) and discovery publishes a `revocation_endpoint`.
 */
export type ServiceOperation = "discovery" | "token" | "refresh" | "getuserinfo" | "create_document" | "revocation";

/** How a call ended: by HTTP status class, or without a status. */
export type ServiceCallOutcome = "ok" | "client_error" | "server_error" | "timeout" | "unreachable";

const serviceCalls = () =>
  histogram({
    name: "esign_service_request_duration_seconds",
    help: "Calls to the e-signature service by operation and outcome (the _count is the number of calls)",
    labelNames: ["operation", "outcome"] as const,
  });

/** Records one call to the service. */
export function recordServiceCall(operation: ServiceOperation, outcome: ServiceCallOutcome, seconds: number): void {
  serviceCalls().observe({ operation, outcome }, seconds);
}

/** The outcome label for an answered call. */
export function outcomeOfStatus(status: number): ServiceCallOutcome {
  if (status >= 500) return "server_error";
  if (status >= 400) return "client_error";
  return "ok";
}
