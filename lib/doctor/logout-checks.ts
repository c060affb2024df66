import "server-only";
import type { DoctorContext, Discovery } from "@/lib/doctor/context";
import type { CheckResult } from "@/lib/doctor/report";

/**
 * OIDC Back-Channel Logout 1.0: whether the service can tell the app that a user's session at the service
 * ended, and the URI to register for it. Optional for the app (sign-out still works without it), so
 * its absence is a warning.
 */
export function checkBackchannelLogout({ appOrigin }: DoctorContext, discovery: Discovery): CheckResult {
  const id = "backchannel-logout";
  const title = "Back-channel logout";
  const uri = appOrigin ? `${appOrigin}/api/auth/backchannel-logout` : "<AUTH_URL>/api/auth/backchannel-logout";
  if (discovery.backchannel_logout_supported !== true) {
    return {
      id,
      title,
      status: "warn",
      detail: "discovery does not advertise backchannel_logout_supported: signing out at the service leaves the app's session until it expires",
      fix: `Ask the service whether it offers OIDC back-channel logout; if it does, register ${uri} as the client's back-channel logout URI.`,
    };
  }
  const perSession = discovery.backchannel_logout_session_supported === true;
  return {
    id,
    title,
    status: "pass",
    detail: `supported${perSession ? ", with sid (per session)" : " without sid: a logout token ends every session of the user"}; register ${uri} as the client's back-channel logout URI`,
  };
}

/** RFC 7009 token revocation: "sign out everywhere" uses it to revoke the refresh tokens the app holds. */
export function checkRevocation(discovery: Discovery): CheckResult {
  const id = "revocation";
  const title = "Token revocation";
  const endpoint = discovery.revocation_endpoint;
  if (typeof endpoint !== "string" || !URL.canParse(endpoint)) {
    return {
      id,
      title,
      status: "warn",
      detail: "discovery publishes no revocation_endpoint (RFC 7009): sign out everywhere ends the app's sessions but cannot revoke their refresh tokens at the service",
      fix: "Ask the service for a token revocation endpoint; until then refresh tokens stay valid at the service until they expire.",
    };
  }
  return { id, title, status: "pass", detail: `revocation_endpoint ${endpoint}: sign out everywhere revokes refresh tokens there` };
}
