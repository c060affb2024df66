import { escapeHtml, renderPage } from "./layout";
import type { PageLanguage } from "./language";
import { pageTexts } from "./texts";

export interface ConsentView {
  language: PageLanguage;
  uid: string;
  /** The client's display name (`client_name`), never its id. */
  clientName: string;
  /** Undefined when the session's account is no longer known. */
  userName: string | undefined;
  scopes: string[];
}

export function renderConsent({ language, uid, clientName, userName, scopes }: ConsentView): string {
  const t = pageTexts[language].consent;
  const items = scopes
    .map((scope) => `<li>${escapeHtml(t.scopes[scope] ?? scope)} <code>${escapeHtml(scope)}</code></li>`)
    .join("\n");
  return renderPage(
    language,
    t.title,
    `<h1>${t.heading}</h1>
<p>${t.asks(escapeHtml(userName ?? t.unknownUser), escapeHtml(clientName))}</p>
<ul>
${items}
</ul>
<div class="actions">
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit" class="secondary">${t.deny}</button></form>
<form method="post" action="/interaction/${escapeHtml(uid)}/confirm"><button type="submit" class="primary" autofocus>${t.allow}</button></form>
</div>`,
  );
}
