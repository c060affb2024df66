/** Human text for the error codes Auth.js puts in `?error=` after a failed sign-in. */
export type AuthErrorMessage = { title: string; body: string };

const messages: Record<string, AuthErrorMessage> = {
  AccessDenied: {
    title: "Access was not granted",
    body: "You chose not to let this app act for you at the e-signature service. Sign in again and choose Allow to continue.",
  },
  ServiceUnavailable: {
    title: "The e-signature service is not reachable",
    body: "We could not reach the service's sign-in page just now, so we did not send you there. Please try again in a moment.",
  },
  OAuthSignin: {
    title: "We could not start sign-in",
    body: "The e-signature service's sign-in page could not be reached. It may be down for a moment; please try again shortly.",
  },
  OAuthCallbackError: {
    title: "Sign-in did not complete",
    body: "The e-signature service did not confirm your sign-in. Please try again.",
  },
  CallbackRouteError: {
    title: "Sign-in did not complete",
    body: "Your sign-in could not be confirmed with the e-signature service — the link may have expired or the service may be unavailable. Please try again.",
  },
  LinkExpired: {
    title: "This sign-in link has expired or was already used",
    body: "Sign in again to continue. This happens after using the back button, an old link, or signing in from two tabs at once.",
  },
  Configuration: {
    title: "Sign-in is not available right now",
    body: "The app could not complete sign-in with the e-signature service. It may be unreachable, or the app's connection settings may be wrong. Please try again shortly; if it persists, contact the app's administrator.",
  },
};

const fallback: AuthErrorMessage = {
  title: "Sign-in failed",
  body: "Something went wrong while signing you in. Please try again.",
};

export function authErrorMessage(code: string | undefined): AuthErrorMessage {
  return (code && messages[code]) || fallback;
}
