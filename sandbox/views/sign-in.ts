import { escapeHtml, renderPage } from "./layout";
import type { PageLanguage } from "./language";
import { pageTexts } from "./texts";

export interface SignInView {
  language: PageLanguage;
  uid: string;
  /** The client's display name (`client_name`), never its id. */
  clientName: string;
  email?: string;
  /** The wrong-credentials message is the only error this page shows. */
  wrongCredentials?: boolean;
  /** Who the service's session belongs to when a fresh login was asked for (`prompt=login`). */
  signedInAs?: string;
}

export function renderSignIn({ language, uid, clientName, email = "", wrongCredentials = false, signedInAs }: SignInView): string {
  const t = pageTexts[language].signIn;
  const alert = wrongCredentials ? `<p class="alert" role="alert" id="sign-in-error">${escapeHtml(t.wrongCredentials)}</p>` : "";
  // After a failed attempt the password field gets focus, since the email is usually right.
  const focusEmail = wrongCredentials && email ? "" : " autofocus";
  const focusPassword = wrongCredentials && email ? " autofocus" : "";
  const described = wrongCredentials ? ' aria-describedby="sign-in-error" aria-invalid="true"' : "";
  return renderPage(
    language,
    t.title,
    `<h1>${t.heading}</h1>
<p>${t.continueTo(escapeHtml(clientName))}</p>
${signedInAs ? `<p data-testid="signed-in-as">${t.signedInAs(escapeHtml(signedInAs))}</p>` : ""}
${alert}
<form method="post" action="/interaction/${escapeHtml(uid)}/login" novalidate>
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"${focusEmail}${described}>
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${focusPassword}${described}>
<button type="submit" class="primary">${t.submit}</button>
</form>`,
  );
}
