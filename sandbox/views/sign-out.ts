import { escapeHtml, renderPage } from "./layout";
import type { PageLanguage } from "./language";
import { pageTexts } from "./texts";

/**
 * oidc-provider's RP-initiated logout confirmation (`logoutSource`): `form` is the library's hidden
 * form (id `op.logoutForm`, with its XSRF token); the two buttons submit it with or without `logout=yes`.
 * `clientName` is the client's display name (`client_name`), never its id.
 */
export function renderSignOutConfirm({ language, form, userName, clientName }: { language: PageLanguage; form: string; userName?: string; clientName?: string }): string {
  const t = pageTexts[language].signOut;
  const who = userName ? `${t.signedInAs(escapeHtml(userName))} ` : "";
  const from = clientName ? ` ${t.signedOutOf(escapeHtml(clientName))}` : "";
  return renderPage(
    language,
    t.title,
    `<h1>${t.heading}</h1>
<p>${who}${from}</p>
${form}
<div class="actions">
<button type="submit" form="op.logoutForm" class="secondary">${t.stay}</button>
<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary" autofocus>${t.confirm}</button>
</div>`,
  );
}

/** Shown when a sign-out had no registered place to return to. */
export function renderSignedOut(language: PageLanguage): string {
  const t = pageTexts[language].signOut;
  return renderPage(language, t.doneTitle, `<h1>${t.doneTitle}</h1>\n<p>${t.doneBody}</p>`);
}
