import { escapeHtml, renderPage } from "./layout";

export interface SignInView {
  uid: string;
  clientId: string;
  email?: string;
  error?: string;
  /** Who the service's session belongs to when a fresh login was asked for (`prompt=login`). */
  signedInAs?: string;
}

export function renderSignIn({ uid, clientId, email = "", error, signedInAs }: SignInView): string {
  const alert = error ? `<p class="alert" role="alert" id="sign-in-error">${escapeHtml(error)}</p>` : "";
  // After a failed attempt the password field gets focus, since the email is usually right.
  const focusEmail = error && email ? "" : " autofocus";
  const focusPassword = error && email ? " autofocus" : "";
  const described = error ? ' aria-describedby="sign-in-error" aria-invalid="true"' : "";
  return renderPage(
    "Sign in",
    `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(clientId)}</strong></p>
${signedInAs ? `<p data-testid="signed-in-as">You are signed in as <strong>${escapeHtml(signedInAs)}</strong>. Sign in again, or as someone else.</p>` : ""}
${alert}
<form method="post" action="/interaction/${escapeHtml(uid)}/login" novalidate>
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"${focusEmail}${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${focusPassword}${described}>
<button type="submit" class="primary">Sign in</button>
</form>`,
  );
}
