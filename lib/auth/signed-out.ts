/**
 * How the start page knows it was reached by signing out: the `state` parameter, which OIDC RP-Initiated Logout
 * hands back unchanged on the way to `post_logout_redirect_uri` (so the registered URI stays the bare start page),
 * and which the app's own redirect sets when the service has no end-session endpoint. It only chooses a message.
 */
export const SIGNED_OUT_STATE = "signed-out";

/** The start page after signing out of the app alone. */
export const SIGNED_OUT_HOME = `/?state=${SIGNED_OUT_STATE}`;
