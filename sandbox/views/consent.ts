import { escapeHtml, renderPage } from "./layout";

const scopeDescriptions: Record<string, string> = {
  openid: "Confirm your identity",
  profile: "See your name",
  email: "See your email address",
  "service.api": "Create documents and read your account on your behalf",
  "service.app": "Use the e-signature features of the application",
  offline_access: "Stay connected when you are not using the application",
};

export interface ConsentView {
  uid: string;
  clientId: string;
  userName: string;
  scopes: string[];
}

export function renderConsent({ uid, clientId, userName, scopes }: ConsentView): string {
  const items = scopes
    .map((scope) => `<li>${escapeHtml(scopeDescriptions[scope] ?? scope)} <code>${escapeHtml(scope)}</code></li>`)
    .join("\n");
  return renderPage(
    "Allow access",
    `<h1>Allow access?</h1>
<p>Signed in as <strong>${escapeHtml(userName)}</strong>. <strong>${escapeHtml(clientId)}</strong> asks to:</p>
<ul>
${items}
</ul>
<div class="actions">
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit" class="secondary">Deny</button></form>
<form method="post" action="/interaction/${escapeHtml(uid)}/confirm"><button type="submit" class="primary" autofocus>Allow</button></form>
</div>`,
  );
}
